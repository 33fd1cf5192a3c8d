/** Country calling codes offered by the area-code picker (/chooseArea); spec default 86. */
export interface Country {
  code: string;
  en: string;
  zh: string;
}

/** Countries and regions, most common first. */
export const COUNTRIES: readonly Country[] = [
  { code: '86', en: 'China', zh: '中国大陆' },
  { code: '852', en: 'Hong Kong, China', zh: '中国香港' },
  { code: '853', en: 'Macao, China', zh: '中国澳门' },
  { code: '886', en: 'Taiwan, China', zh: '中国台湾' },
  { code: '1', en: 'United States / Canada', zh: '美国 / 加拿大' },
  { code: '44', en: 'United Kingdom', zh: '英国' },
  { code: '81', en: 'Japan', zh: '日本' },
  { code: '82', en: 'South Korea', zh: '韩国' },
  { code: '65', en: 'Singapore', zh: '新加坡' },
  { code: '60', en: 'Malaysia', zh: '马来西亚' },
  { code: '66', en: 'Thailand', zh: '泰国' },
  { code: '84', en: 'Vietnam', zh: '越南' },
  { code: '63', en: 'Philippines', zh: '菲律宾' },
  { code: '62', en: 'Indonesia', zh: '印度尼西亚' },
  { code: '91', en: 'India', zh: '印度' },
  { code: '971', en: 'United Arab Emirates', zh: '阿联酋' },
  { code: '966', en: 'Saudi Arabia', zh: '沙特阿拉伯' },
  { code: '90', en: 'Turkey', zh: '土耳其' },
  { code: '7', en: 'Russia', zh: '俄罗斯' },
  { code: '49', en: 'Germany', zh: '德国' },
  { code: '33', en: 'France', zh: '法国' },
  { code: '39', en: 'Italy', zh: '意大利' },
  { code: '34', en: 'Spain', zh: '西班牙' },
  { code: '31', en: 'Netherlands', zh: '荷兰' },
  { code: '41', en: 'Switzerland', zh: '瑞士' },
  { code: '46', en: 'Sweden', zh: '瑞典' },
  { code: '48', en: 'Poland', zh: '波兰' },
  { code: '380', en: 'Ukraine', zh: '乌克兰' },
  { code: '61', en: 'Australia', zh: '澳大利亚' },
  { code: '64', en: 'New Zealand', zh: '新西兰' },
  { code: '55', en: 'Brazil', zh: '巴西' },
  { code: '52', en: 'Mexico', zh: '墨西哥' },
  { code: '54', en: 'Argentina', zh: '阿根廷' },
  { code: '57', en: 'Colombia', zh: '哥伦比亚' },
  { code: '27', en: 'South Africa', zh: '南非' },
  { code: '234', en: 'Nigeria', zh: '尼日利亚' },
  { code: '254', en: 'Kenya', zh: '肯尼亚' },
  { code: '20', en: 'Egypt', zh: '埃及' },
  { code: '92', en: 'Pakistan', zh: '巴基斯坦' },
  { code: '880', en: 'Bangladesh', zh: '孟加拉国' },
];
