// Countries and the adjectives English says their people and things with ("French", "American"): what
// "Are X and Y from the same country?" compares (shapes/yes-no.ts). One entry a country: "Country:Adjective|Other".

const ENTRIES = `Afghanistan:Afghan|Albania:Albanian|Algeria:Algerian|Argentina:Argentine|Argentina:Argentinian|Armenia:Armenian|
Australia:Australian|Austria:Austrian|Azerbaijan:Azerbaijani|Bangladesh:Bangladeshi|Belarus:Belarusian|Belgium:Belgian|
Bolivia:Bolivian|Bosnia:Bosnian|Brazil:Brazilian|Bulgaria:Bulgarian|Cambodia:Cambodian|Cameroon:Cameroonian|Canada:Canadian|
Chile:Chilean|China:Chinese|Colombia:Colombian|Croatia:Croatian|Cuba:Cuban|Cyprus:Cypriot|Czech Republic:Czech|
Czechoslovakia:Czechoslovak|Denmark:Danish|Dominican Republic:Dominican|Ecuador:Ecuadorian|Egypt:Egyptian|
Estonia:Estonian|Ethiopia:Ethiopian|Finland:Finnish|France:French|Georgia:Georgian|Germany:German|Ghana:Ghanaian|Greece:Greek|
Guatemala:Guatemalan|Hungary:Hungarian|Iceland:Icelandic|India:Indian|Indonesia:Indonesian|Iran:Iranian|Iraq:Iraqi|
Ireland:Irish|Israel:Israeli|Italy:Italian|Jamaica:Jamaican|Japan:Japanese|Jordan:Jordanian|Kazakhstan:Kazakh|Kenya:Kenyan|
Korea:Korean|South Korea:South Korean|North Korea:North Korean|Latvia:Latvian|Lebanon:Lebanese|Lithuania:Lithuanian|
Luxembourg:Luxembourgish|Malaysia:Malaysian|Mexico:Mexican|Moldova:Moldovan|Mongolia:Mongolian|Morocco:Moroccan|
Nepal:Nepalese|Netherlands:Dutch|New Zealand:New Zealander|Nigeria:Nigerian|Norway:Norwegian|Pakistan:Pakistani|
Peru:Peruvian|Philippines:Filipino|Philippines:Philippine|Poland:Polish|Portugal:Portuguese|Romania:Romanian|Russia:Russian|
Serbia:Serbian|Singapore:Singaporean|Slovakia:Slovak|Slovenia:Slovenian|South Africa:South African|
Soviet Union:Soviet|Spain:Spanish|Sri Lanka:Sri Lankan|Sweden:Swedish|Switzerland:Swiss|Syria:Syrian|Taiwan:Taiwanese|
Thailand:Thai|Tunisia:Tunisian|Turkey:Turkish|Ukraine:Ukrainian|United Kingdom:British|United States:American|
Uruguay:Uruguayan|Venezuela:Venezuelan|Vietnam:Vietnamese|Yugoslavia:Yugoslav|Zimbabwe:Zimbabwean|Myanmar:Burmese|Laos:Lao|
Nicaragua:Nicaraguan|Panama:Panamanian|Paraguay:Paraguayan|Honduras:Honduran|El Salvador:Salvadoran|Costa Rica:Costa Rican|
Puerto Rico:Puerto Rican|Haiti:Haitian|Bahamas:Bahamian|Barbados:Barbadian|Trinidad and Tobago:Trinidadian|Senegal:Senegalese|
Uganda:Ugandan|Tanzania:Tanzanian|Sudan:Sudanese|Libya:Libyan|Saudi Arabia:Saudi|Qatar:Qatari|Kuwait:Kuwaiti|
United Arab Emirates:Emirati|Yemen:Yemeni|Oman:Omani|Bahrain:Bahraini|Uzbekistan:Uzbek|Kyrgyzstan:Kyrgyz|Tajikistan:Tajik|
Turkmenistan:Turkmen|North Macedonia:Macedonian|Montenegro:Montenegrin|Kosovo:Kosovar|Malta:Maltese|Monaco:Monegasque|
Fiji:Fijian|Samoa:Samoan|Tonga:Tongan|Papua New Guinea:Papua New Guinean|Madagascar:Malagasy|Mozambique:Mozambican|
Angola:Angolan|Zambia:Zambian|Namibia:Namibian|Botswana:Botswanan|Rwanda:Rwandan|Congo:Congolese|Ivory Coast:Ivorian|
Mali:Malian|Somalia:Somali|Eritrea:Eritrean|Sierra Leone:Sierra Leonean|Liberia:Liberian|Brunei:Bruneian|Bhutan:Bhutanese|
Afghanistan:Afghani|Austria-Hungary:Austro-Hungarian|Ottoman Empire:Ottoman|Prussia:Prussian|Nepal:Nepali|El Salvador:Salvadorian|
Togo:Togolese|Gabon:Gabonese|Guinea:Guinean|Gambia:Gambian|Malawi:Malawian|Mauritius:Mauritian|
Mauritania:Mauritanian|Burkina Faso:Burkinabé|Palestine:Palestinian|Luxembourg:Luxembourger|Andorra:Andorran|
Liechtenstein:Liechtensteiner|Bermuda:Bermudian|Guyana:Guyanese|Suriname:Surinamese|Belize:Belizean|Grenada:Grenadian|
East Timor:Timorese|Kazakhstan:Kazakhstani|Azerbaijan:Azeri|Cambodia:Khmer|Belarus:Byelorussian|Czechoslovakia:Czechoslovakian|
Yugoslavia:Yugoslavian|Russian Empire:Imperial Russian|Sri Lanka:Ceylonese|Thailand:Siamese|Zimbabwe:Rhodesian|Cape Verde:Cape Verdean|
Faroe Islands:Faroese|Greenland:Greenlandic|Philippines:Filipina|Burundi:Burundian|Lesotho:Basotho|Eswatini:Swazi|Djibouti:Djiboutian|
Seychelles:Seychellois|Maldives:Maldivian|San Marino:Sammarinese|Liberia:Liberian|Equatorial Guinea:Equatoguinean`;

/** Other names of a country: "the US", "U.S.", "Britain". */
const ALIASES: Record<string, string> = {
  usa: "United States", us: "United States", "u s": "United States", "united states of america": "United States", america: "United States",
  uk: "United Kingdom", "u k": "United Kingdom", britain: "United Kingdom", "great britain": "United Kingdom",
  holland: "Netherlands", england: "United Kingdom", english: "United Kingdom", scotland: "United Kingdom", scottish: "United Kingdom", wales: "United Kingdom", welsh: "United Kingdom", "the netherlands": "Netherlands", ussr: "Soviet Union", persia: "Iran", burma: "Myanmar",
  "northern ireland": "United Kingdom", "northern irish": "United Kingdom", hawaiian: "United States", "east germany": "Germany", "west germany": "Germany",
  "east german": "Germany", "west german": "Germany", "republic of ireland": "Ireland", "people's republic of china": "China",
  czechia: "Czech Republic", "côte d'ivoire": "Ivory Coast", siam: "Thailand", ceylon: "Sri Lanka", "soviet russia": "Soviet Union",
  cornish: "United Kingdom", manx: "United Kingdom", maori: "New Zealand", "māori": "New Zealand", "democratic republic of the congo": "Congo",
};

/**
 * First-level divisions that say their country when a page names only them ("a river in Oregon", "born in
 * Regina, Saskatchewan"). Names shared with a country or a common given name (Georgia, Victoria) are left out.
 */
const DIVISIONS: Record<string, string> = Object.fromEntries([
  ...`Alabama|Alaska|Arizona|Arkansas|California|Californian|Colorado|Connecticut|Delaware|Florida|Floridian|Hawaii|Idaho|Illinois|Indiana|Iowa|Kansas|Kentucky|
Louisiana|Maine|Maryland|Massachusetts|Michigan|Minnesota|Mississippi|Missouri|Montana|Nebraska|Nevada|New Hampshire|New Jersey|New Mexico|
New York|North Carolina|North Dakota|Ohio|Oklahoma|Oregon|Pennsylvania|Rhode Island|South Carolina|South Dakota|Tennessee|Texas|Texan|Utah|
Vermont|Virginia|West Virginia|Washington, D.C.|Wisconsin|Wyoming`.replace(/\n/g, "").split("|").map((d) => [d.toLowerCase(), "United States"]),
  ...`Alberta|British Columbia|Manitoba|New Brunswick|Newfoundland|Nova Scotia|Ontario|Quebec|Québec|Saskatchewan|Quebecois|Québécois`.split("|").map((d) => [d.toLowerCase(), "Canada"]),
  ...`New South Wales|Queensland|South Australia|Western Australia|Tasmania`.split("|").map((d) => [d.toLowerCase(), "Australia"]),
  ...`Bavaria|Saxony|Hesse|Thuringia|Baden-Württemberg|North Rhine-Westphalia|Lower Saxony|Schleswig-Holstein|Rhineland-Palatinate|
Saarland|Mecklenburg-Vorpommern|Saxony-Anhalt`.replace(/\n/g, "").split("|").map((d) => [d.toLowerCase(), "Germany"]),
  ...`Kerala|Tamil Nadu|Karnataka|Maharashtra|Uttar Pradesh|West Bengal|Andhra Pradesh|Telangana|Gujarat|Rajasthan|Bihar|Odisha|
Assam|Madhya Pradesh|Haryana|Himachal Pradesh|Uttarakhand|Jharkhand|Chhattisgarh|Goa`.replace(/\n/g, "").split("|").map((d) => [d.toLowerCase(), "India"]),
  ...`Guangdong|Sichuan|Yunnan|Hunan|Hubei|Zhejiang|Jiangsu|Shandong|Henan|Hebei|Fujian|Anhui|Jiangxi|Shanxi|Shaanxi|Guangxi|
Guizhou|Heilongjiang|Jilin|Liaoning|Gansu|Qinghai|Hainan|Inner Mongolia|Xinjiang`.replace(/\n/g, "").split("|").map((d) => [d.toLowerCase(), "China"]),
  ...`Tuscany|Lombardy|Sicily|Sardinia|Piedmont|Veneto|Campania|Apulia|Calabria|Liguria|Umbria|Lazio|Emilia-Romagna|Abruzzo|
Friuli-Venezia Giulia`.replace(/\n/g, "").split("|").map((d) => [d.toLowerCase(), "Italy"]),
  ...`Jalisco|Oaxaca|Chiapas|Yucatán|Sonora|Chihuahua|Veracruz|Nuevo León|Baja California|Sinaloa|Michoacán`.split("|").map((d) => [d.toLowerCase(), "Mexico"]),
  ...`Andalusia|Catalonia|Asturias|Navarre|Basque Country|Extremadura`.split("|").map((d) => [d.toLowerCase(), "Spain"]),
]);

/** Lower-case adjective or country name → the country. */
export const COUNTRY_OF: ReadonlyMap<string, string> = new Map([
  ...ENTRIES.replace(/\n/g, "")
    .split("|")
    .flatMap((entry) => {
      const [country, adjective] = entry.split(":") as [string, string];
      return [[adjective.toLowerCase(), country] as const, [country.toLowerCase(), country] as const];
    }),
  ...Object.entries(ALIASES),
  ...Object.entries(DIVISIONS),
]);

/** The country a word or name says: "French", "France", "U.S." (dots and case aside). */
export const countryNamed = (said: string) => COUNTRY_OF.get(said.toLowerCase()) ?? COUNTRY_OF.get(said.toLowerCase().replace(/\./g, " ").trim());

/** Adjectives of a people ("French", "Texan"), as against names of places ("France", "Texas"). */
const ADJECTIVES = new Set([
  ...ENTRIES.replace(/\n/g, "").split("|").map((entry) => entry.split(":")[1]!.toLowerCase()),
  ...["english", "scottish", "welsh", "northern irish", "hawaiian", "east german", "west german", "texan", "californian", "floridian", "quebecois", "québécois"],
]);

/** Whether a word is a people's adjective rather than a place's name. */
export const isDemonym = (said: string) => ADJECTIVES.has(said.toLowerCase());

/**
 * Languages and film industries of one country, for a page that names no country but its language ("a 1975
 * Tamil film", "a Bollywood actor"). Languages spoken in several countries (Bengali, Punjabi, Urdu, Spanish)
 * are left out: they say no one country.
 */
const ONE_COUNTRY_LANGUAGES: Record<string, string> = {
  tamil: "India", telugu: "India", kannada: "India", malayalam: "India", hindi: "India", marathi: "India", gujarati: "India",
  odia: "India", oriya: "India", assamese: "India", bhojpuri: "India", konkani: "India", tulu: "India",
  bollywood: "India", tollywood: "India", kollywood: "India", mollywood: "India",
  sinhala: "Sri Lanka", sinhalese: "Sri Lanka", tagalog: "Philippines", catalan: "Spain", basque: "Spain", galician: "Spain",
  flemish: "Belgium", bavarian: "Germany", sicilian: "Italy", neapolitan: "Italy", persian: "Iran", nollywood: "Nigeria",
};

/** The country a language or film industry of one country says ("Kannada", "Bollywood"), or undefined. */
export const countryOfLanguage = (word: string) => ONE_COUNTRY_LANGUAGES[word.toLowerCase()];
