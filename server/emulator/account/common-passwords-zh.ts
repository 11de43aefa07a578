/**
 * Passwords that lead the breach lists of this market (mainland China), which the English-centred
 * zxcvbn list misses. Two parts:
 *
 * 1. `LEAKED_TOP`: passwords of 8 characters or more drawn from the top of the frequency tables
 *    published for the 2011 leaks of CSDN (about 6 million accounts), Tianya (about 40 million),
 *    7k7k, 178.com and Duowan, as reported in the security press and in password studies of those
 *    leaks, with close variants of them; lower-cased, one list, not a copy of any one table.
 * 2. `patterns()`: the shapes that fill the rest of those tables, generated: one digit repeated,
 *    digit runs up and down, short blocks repeated (123123123, 12121212), keypad walks
 *    (147258369), the "love numbers" (520 我爱你, 1314 一生一世, 7758521 亲亲我吧我爱你) alone,
 *    doubled and after pinyin words (woaini1314), the 100 commonest surnames in pinyin followed by
 *    common digit tails (wang1234, zhang123456), and birthdays written YYYYMMDD (1950–2015).
 *
 * See docs/security.md#password-rules.
 */

export const LEAKED_TOP: readonly string[] = [
  // CSDN, 2011.
  '123456789',
  '12345678',
  '11111111',
  'dearbook',
  '00000000',
  '123123123',
  '1234567890',
  '88888888',
  '111111111',
  '147258369',
  '987654321',
  'aaaaaaaa',
  '1111111111',
  '66666666',
  'a123456789',
  '11223344',
  '1qaz2wsx',
  'xiazhili',
  '789456123',
  'password',
  '87654321',
  'qqqqqqqq',
  '000000000',
  'qwertyuiop',
  'qq123456',
  'iloveyou',
  '31415926',
  '12344321',
  '0000000000',
  'asdfghjkl',
  '1q2w3e4r',
  '123456abc',
  '0123456789',
  '123654789',
  '12121212',
  'qazwsxedc',
  'abcd1234',
  '12341234',
  '110110110',
  'asdasdasd',
  '22222222',
  '123321123',
  'abc123456',
  'a12345678',
  '123456123',
  'a1234567',
  '1234qwer',
  'qwertyui',
  '123456789a',
  'aa123456',
  '1234554321',
  '5201314520',
  '1314520520',
  'woaini1314',
  '123456qq',
  'qwe123456',
  '99999999',
  '147852369',
  '3.1415926',
  'abcdefgh',
  '55555555',
  'zxcvbnm123',
  '1233211234567',
  '521521521',
  '77777777',
  '12345678a',
  'z123456789',
  '33333333',
  'password1',
  'qweqweqwe',
  '369258147',
  '12qwaszx',
  'q1w2e3r4',
  'woaiwojia',
  'aaaaaaaaa',
  '456456456',
  '123456aa',
  '1qazxsw2',
  'zxczxczxc',
  '321321321',
  '12301230',
  'asd123456',
  'li123456',
  'wang123456',
  'zhang123',
  'qwer1234',
  'asdf1234',
  '1234abcd',
  'abc12345',
  'iloveyou1314',
  'qweasdzxc',
  '7758521521',
  'huang123',
  'wodemima',
  'mima123456',
  'zhongguo',
  'beijing2008',
  'a5201314',
  // Tianya, 7k7k, 178.com, Duowan, 2011, and variants: those not already above.
  '111222tianya',
  'tianya123',
  'woaiwojia1',
  '7k7k.com',
  '7k7k7k7k',
  '178178178',
  'duowan123',
  'woaini520',
  '520woaini',
  'woaini521',
  'woaini123',
  'woaini1314520',
  'woainimama',
  'woaibaba',
  'woaimama',
  'woainima',
  'iloveyou520',
  'aini1314',
  'aiwo1314',
  'wo5201314',
  'qq5201314',
  'qq1314520',
  'qq111111',
  'qq666666',
  'qq888888',
  'qq123123',
  'qq12345678',
  'qq123456789',
  'a5201314520',
  'a1314520',
  '5201314a',
  '1314520a',
  '5211314a',
  'abc5201314',
  'abc1314520',
  'zhanghao',
  'zhangwei',
  'wangwei',
  'wangfang',
  'liwei123',
  'zhongguoren',
  'woshishui',
  'nihaoma123',
  'wangyang',
  'xiaoming',
  'xiaoqiang',
  'xiaoxiao',
  'shanghai',
  'guangzhou',
  'shenzhen',
  'tiantian',
  'haoyun888',
  'facai888',
  'fa888888',
  '168168168',
  '16881688',
  '18881888',
  '1qaz!qaz',
  '1qaz@wsx',
  'p@ssw0rd',
  'passw0rd',
  'admin123',
  'admin888',
  'admin123456',
  'root1234',
  'test1234',
  'test123456',
  'pass1234',
  'baidu123',
  'sina123456',
  'taobao123',
  'wangyi163',
  'qwertyuiop123',
  'asdfghjkl123',
  'zxcvbnm1',
  'q1w2e3r4t5',
  '1q2w3e4r5t',
  '1q2w3e4r5t6y',
  'qaz123456',
  'wsx123456',
  'a11111111',
  'a00000000',
  'aa111111',
  'aaa111111',
  'abc111111',
  'abc888888',
  'a88888888',
  'a66666666',
  'a1b2c3d4',
  'a1s2d3f4',
  '12345qwert',
  '123qweasd',
  '123qweasdzxc',
  'qweasd123',
  'asdqwe123',
  'zaq12wsx',
  '1234567a',
  '1234567q',
  '123456789q',
  '123456789z',
  '12345678910',
  '123456789+',
  '123abc123',
]

/** The 100 commonest Chinese surnames, in pinyin (ü as v). */
const SURNAMES = [
  'wang',
  'li',
  'zhang',
  'liu',
  'chen',
  'yang',
  'huang',
  'zhao',
  'wu',
  'zhou',
  'xu',
  'sun',
  'ma',
  'zhu',
  'hu',
  'guo',
  'he',
  'gao',
  'lin',
  'luo',
  'zheng',
  'liang',
  'xie',
  'song',
  'tang',
  'han',
  'feng',
  'deng',
  'cao',
  'peng',
  'zeng',
  'xiao',
  'tian',
  'dong',
  'pan',
  'yuan',
  'cai',
  'jiang',
  'yu',
  'du',
  'ye',
  'cheng',
  'wei',
  'su',
  'lv',
  'ding',
  'ren',
  'lu',
  'yao',
  'shen',
  'zhong',
  'cui',
  'tan',
  'fan',
  'jin',
  'shi',
  'liao',
  'jia',
  'xia',
  'fu',
  'fang',
  'zou',
  'xiong',
  'bai',
  'meng',
  'qin',
  'qiu',
  'hou',
  'yin',
  'xue',
  'yan',
  'duan',
  'lei',
  'long',
  'tao',
  'mao',
  'hao',
  'gu',
  'gong',
  'shao',
  'wan',
  'qian',
  'yi',
  'dai',
  'kong',
  'mo',
  'kang',
  'chang',
  'niu',
  'wen',
  'qi',
  'ou',
  'zhan',
  'ni',
  'guan',
  'ling',
  'xing',
  'an',
  'ge',
  'ji',
]

/** Pinyin words that lead the word-plus-digits passwords. */
const WORDS = [
  'woaini',
  'aini',
  'iloveyou',
  'love',
  'wodemima',
  'mima',
  'woaiwojia',
  'zhongguo',
  'beijing',
  'qq',
  'a',
  'aa',
  'abc',
  'asd',
  'qwe',
  'zxc',
  'wo',
  'baobao',
  'laopo',
  'laogong',
  'nihao',
  'haha',
  'hehe',
  'xiaoxiao',
  'tiantian',
  'lele',
  'fafa',
]

/** Digit tails that follow a name or a word. */
const TAILS = [
  '1',
  '12',
  '123',
  '1234',
  '12345',
  '123456',
  '1234567',
  '12345678',
  '123456789',
  '111',
  '1111',
  '111111',
  '000',
  '0000',
  '000000',
  '888',
  '8888',
  '888888',
  '666',
  '6666',
  '666666',
  '520',
  '521',
  '1314',
  '5201314',
  '1314520',
  '7758521',
  '123123',
  '321',
  '4321',
  '654321',
  '110',
  '119',
  '168',
  '1688',
  '2008',
  '2010',
  '2012',
]

/** Love numbers and lucky numbers, alone and joined. */
const NUMBERS = [
  '520',
  '521',
  '1314',
  '5201314',
  '1314520',
  '7758521',
  '5211314',
  '168',
  '1688',
  '888',
  '666',
]

function digitRuns(out: Set<string>): void {
  const up = '01234567890123456789'
  const down = '98765432109876543210'
  for (let len = 8; len <= 12; len++) {
    for (let d = 0; d <= 9; d++) out.add(String(d).repeat(len))
    for (let start = 0; start < 10; start++) {
      out.add(up.slice(start, start + len))
      out.add(down.slice(start, start + len))
    }
  }
}

function repeatedBlocks(out: Set<string>): void {
  // Every block of 2 to 4 digits repeated to 8–12 characters: 12121212, 123123123, 52052052.
  for (let size = 2; size <= 4; size++) {
    for (let n = 0; n < 10 ** size; n++) {
      const block = String(n).padStart(size, '0')
      for (let times = 2; block.length * times <= 12; times++) {
        const text = block.repeat(times)
        if (text.length >= 8) out.add(text)
      }
    }
  }
  // A block and its mirror: 12344321, 1234554321, 123321123.
  for (const block of ['123', '1234', '12345', '321', '4321', '520', '1314', '147', '258', '369']) {
    const mirror = [...block].reverse().join('')
    for (const text of [block + mirror, block + mirror + block, mirror + block])
      if (text.length >= 8) out.add(text)
  }
}

function keypadWalks(out: Set<string>): void {
  const rows = ['123', '456', '789']
  const cols = ['147', '258', '369']
  const rowsDown = ['789', '456', '123']
  const colsBack = ['741', '852', '963']
  for (const set of [rows, cols, rowsDown, colsBack]) {
    const perms = [set, [...set].reverse()]
    for (const p of perms) {
      out.add(p.join(''))
      out.add(p.map((s) => [...s].reverse().join('')).join(''))
    }
  }
  for (const t of ['159357', '159753', '357159', '147258', '258369', '456789', '789456', '741852', '963852'])
    for (const u of ['123', '456', '789', '159', '357', '147', '258', '369'])
      if ((t + u).length >= 8) out.add(t + u)
}

function loveNumbers(out: Set<string>): void {
  for (const a of NUMBERS) {
    for (const b of NUMBERS) if ((a + b).length >= 8) out.add(a + b)
    for (const t of ['a', 'aa', 'abc', 'qq', 'wo', 'ai']) {
      for (const text of [t + a, a + t]) if (text.length >= 8) out.add(text)
    }
  }
}

function namesAndWords(out: Set<string>): void {
  for (const stem of [...SURNAMES, ...WORDS]) {
    for (const tail of TAILS) {
      for (const text of [stem + tail, tail + stem]) if (text.length >= 8) out.add(text)
    }
    const doubled = stem + stem
    if (doubled.length >= 8) out.add(doubled)
  }
}

function birthdays(out: Set<string>): void {
  const day = 86_400_000
  for (let t = Date.UTC(1950, 0, 1); t < Date.UTC(2016, 0, 1); t += day) {
    out.add(new Date(t).toISOString().slice(0, 10).replaceAll('-', ''))
  }
}

/** The generated part (see above), about 40,000 entries, all of 8 characters or more. */
export function patterns(): Set<string> {
  const out = new Set<string>()
  digitRuns(out)
  repeatedBlocks(out)
  keypadWalks(out)
  loveNumbers(out)
  namesAndWords(out)
  birthdays(out)
  return out
}
