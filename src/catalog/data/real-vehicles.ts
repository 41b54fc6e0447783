import { ENGINE_FAMILIES, isFamilyName, type FamilyName } from './engine-families.js';
import { FUEL_LETTERS, isClassName, VEHICLE_CLASSES, type ClassName } from './vehicle-classes.js';

/**
 * Makes whose model lines are real: the common European, Asian and American makes, with the model
 * lines they sold in Europe, their years, and the generations of the lines sellers name parts by
 * ("Golf VII", "Série 3 F30", "Clio IV"): each generation is a model of its own in the catalog, as
 * in the parts trade's catalogs. The rest of the vehicle catalog is generated (vehicle-catalog.ts).
 *
 * A make: `make|ISO country|engine family` (engine-families.ts). Under it, one line per model line:
 * `  line|class[:fuels]|years`, where the class is one of vehicle-classes.ts (the fuels, as
 * letters, replace the class's own: `compact:e` is electric only), and the years are either the
 * line's own (`2014-2020`, `2019-` while sold) or its generations (`VI 2008-2013, VII 2012-2020`).
 * Years are those of the European market, to the year.
 */
export const REAL_VEHICLES = `
Abarth|IT|fiat
  500|hot|2008-2015
  595|hot|2012-2024
  695|hot|2017-
  Punto Evo|hot|2010-2013
  124 Spider|roadster|2016-2019
  500e|hot:e|2023-
Alfa Romeo|IT|fiat
  33|compact|1983-1995
  75|midsize|1985-1992
  145|compact|1994-2001
  146|compact|1994-2001
  147|compact|2000-2010
  155|midsize|1992-1998
  156|midsize|1997-2007
  159|midsize|2005-2011
  164|executive|1987-1998
  166|executive|1998-2007
  Brera|coupe|2005-2010
  Giulia|midsize|2016-
  Giulietta|compact|2010-2020
  GT|coupe|2003-2010
  GTV|coupe|1995-2005
  MiTo|small|2008-2018
  Spider|roadster|1995-2010
  Stelvio|suv|2017-
  Tonale|suv:pdx|2022-
  4C|coupe:p|2013-2020
Aston Martin|GB|generic
  DB7|sports|1994-2004
  DB9|sports|2004-2016
  DB11|sports|2016-2023
  DBS|sports|2007-
  Vantage|sports|2005-
  Rapide|sports|2010-2020
  DBX|suv_large:p|2020-
  Vanquish|sports|2001-2018
Audi|DE|audi
  80|midsize|1986-1996
  90|midsize|1984-1991
  100|executive|1982-1994
  A1|small|8X 2010-2018, GB 2018-
  A2|small|1999-2005
  A3|compact|8L 1996-2003, 8P 2003-2013, 8V 2012-2020, 8Y 2020-
  A4|midsize|B5 1994-2001, B6 2000-2004, B7 2004-2008, B8 2007-2015, B9 2015-
  A4 Allroad|midsize|2009-
  A5|coupe|2007-
  A6|executive|C5 1997-2004, C6 2004-2011, C7 2011-2018, C8 2018-
  A6 Allroad|executive|2000-
  A7|executive|2010-
  A8|luxury|D2 1994-2002, D3 2002-2010, D4 2010-2017, D5 2017-
  Q2|suv_small|2016-
  Q3|suv|8U 2011-2018, F3 2018-
  Q4 e-tron|suv:e|2021-
  Q5|suv|8R 2008-2017, FY 2016-
  Q7|suv_large|4L 2006-2015, 4M 2015-
  Q8|suv_large|2018-
  R8|supercar|2006-2024
  TT|coupe|8N 1998-2006, 8J 2006-2014, 8S 2014-2023
  e-tron|suv_large:e|2019-2022
  e-tron GT|sports:e|2021-
  RS 3|hot|2011-
  RS 4|performance|2000-
  RS 6|performance|2002-
Bentley|GB|generic
  Arnage|luxury:p|1998-2009
  Bentayga|suv_large|2015-
  Continental GT|sports|2003-
  Flying Spur|luxury|2005-
  Mulsanne|luxury:p|2010-2020
BMW|DE|bmw
  Série 1|compact|E87 2004-2011, F20 2011-2019, F40 2019-
  Série 2|coupe|2014-
  Série 3|midsize|E36 1990-2000, E46 1998-2006, E90 2005-2013, F30 2012-2019, G20 2019-
  Série 4|coupe|2013-
  Série 5|executive|E39 1995-2004, E60 2003-2010, F10 2010-2017, G30 2017-2023
  Série 6|coupe|2003-2018
  Série 7|luxury|E38 1994-2001, E65 2001-2008, F01 2008-2015, G11 2015-2022
  Série 8|sports|E31 1989-1999, G15 2018-
  X1|suv|E84 2009-2015, F48 2015-2022, U11 2022-
  X2|suv|2018-
  X3|suv|E83 2003-2010, F25 2010-2017, G01 2017-
  X4|suv|2014-
  X5|suv_large|E53 1999-2006, E70 2006-2013, F15 2013-2018, G05 2018-
  X6|suv_large|2008-
  X7|suv_large|2019-
  Z3|roadster|1995-2002
  Z4|roadster|2002-
  i3|small:e|2013-2022
  i4|midsize:e|2021-
  iX|suv_large:e|2021-
  iX3|suv:e|2020-
  M3|performance|1986-
  M5|performance|1985-
BYD|CN|generic
  Atto 3|suv:e|2022-
  Dolphin|compact:e|2023-
  Han|executive:e|2022-
  Seal|midsize:e|2023-
  Tang|suv_large:e|2022-
Cadillac|US|generic
  CTS|executive|2002-2019
  Escalade|suv_large:p|1999-
  SRX|suv|2004-2016
  XT4|suv|2019-
  XT5|suv|2016-
  Lyriq|suv_large:e|2022-
Chevrolet|US|generic
  Aveo|small|2006-2015
  Camaro|sports|2010-2024
  Captiva|suv|2006-2015
  Corvette|sports|1997-
  Cruze|compact|2009-2016
  Epica|midsize|2006-2011
  Kalos|small|2005-2008
  Lacetti|compact|2004-2009
  Matiz|city|2005-2010
  Orlando|mpv|2011-2015
  Spark|city|2010-2015
  Trax|suv_small|2013-2016
  Volt|compact:x|2011-2019
Chrysler|US|generic
  300C|executive|2004-2015
  Crossfire|coupe:p|2003-2008
  Grand Voyager|mpv|1996-2016
  PT Cruiser|compact|2000-2010
  Sebring|midsize|2001-2010
  Voyager|mpv|1996-2008
Citroën|FR|psa
  AX|city|1986-1998
  Berlingo|van|I 1996-2010, II 2008-2018, III 2018-
  C1|city|2005-2022
  C2|city|2003-2009
  C3|small|I 2002-2010, II 2009-2016, III 2016-
  C3 Aircross|suv_small|2017-
  C3 Picasso|mpv|2009-2017
  C4|compact|I 2004-2010, II 2010-2018, III 2020-
  C4 Cactus|compact|2014-2020
  C4 Picasso|mpv|2006-2018
  C5|midsize|I 2001-2004, II 2004-2008, III 2008-2017
  C5 Aircross|suv|2018-
  C5 X|midsize|2022-
  C6|executive|2005-2012
  C8|mpv|2002-2014
  C-Crosser|suv|2007-2012
  C-Elysée|small|2012-2022
  DS3|small|2009-2015
  DS4|compact|2011-2015
  DS5|midsize|2011-2015
  Jumper|van_large|1994-
  Jumpy|van|1995-
  Nemo|van|2008-2017
  Saxo|city|1996-2004
  Xantia|midsize|1993-2001
  Xsara|compact|1997-2006
  Xsara Picasso|mpv|1999-2012
  ZX|compact|1991-1998
  ë-C4|compact:e|2020-
Cupra|ES|vag
  Born|compact:e|2021-
  Formentor|suv|2020-
  Leon|hot|2020-
  Ateca|suv|2018-
  Tavascan|suv:e|2024-
Dacia|RO|renault
  Dokker|van|2012-2021
  Duster|suv_small|I 2010-2017, II 2017-2023, III 2024-
  Jogger|mpv|2021-
  Lodgy|mpv|2012-2022
  Logan|small|I 2004-2012, II 2012-2020, III 2020-
  Sandero|small|I 2008-2012, II 2012-2020, III 2020-
  Spring|city:e|2021-
Daewoo|KR|generic
  Espero|midsize|1990-1999
  Kalos|small|2002-2004
  Lanos|compact|1997-2002
  Matiz|city|1998-2005
  Nexia|compact|1994-1997
  Nubira|compact|1997-2004
  Tacuma|mpv|2000-2004
Daihatsu|JP|generic
  Charade|small|1987-2000
  Cuore|city|1995-2012
  Materia|small|2006-2011
  Sirion|small|1998-2012
  Terios|suv_small|1997-2016
  YRV|small|2001-2005
Dodge|US|generic
  Caliber|compact|2006-2012
  Challenger|sports:p|2008-2023
  Charger|sports:p|2006-2023
  Journey|mpv|2008-2011
  Nitro|suv|2007-2011
  RAM|pickup:pd|2002-
DS Automobiles|FR|psa
  DS 3|small|2016-2019
  DS 3 Crossback|suv_small|2019-
  DS 4|compact|2021-
  DS 5|midsize|2015-2018
  DS 7|suv|2017-
  DS 9|executive|2020-
Ferrari|IT|generic
  296|supercar:x|2021-
  360|supercar|1999-2005
  430|supercar|2004-2009
  458|supercar|2009-2015
  488|supercar|2015-2019
  599|supercar|2006-2012
  612|supercar|2004-2011
  California|supercar|2008-2017
  F8|supercar|2019-
  Portofino|supercar|2017-
  Roma|supercar|2020-
  SF90|supercar:x|2019-
Fiat|IT|fiat
  500|city|2007-
  500L|mpv|2012-2022
  500X|suv_small|2014-
  600|suv_small:pe|2023-
  Bravo|compact|I 1995-2001, II 2007-2014
  Brava|compact|1995-2001
  Croma|midsize|2005-2010
  Doblò|van|I 2000-2010, II 2010-2022
  Ducato|van_large|1994-
  Fiorino|van|2007-2021
  Freemont|mpv|2011-2016
  Grande Punto|small|2005-2009
  Idea|mpv|2003-2012
  Linea|small|2007-2015
  Marea|midsize|1996-2002
  Multipla|mpv|1998-2010
  Palio|small|1996-2004
  Panda|city|II 2003-2012, III 2011-
  Punto|small|I 1993-1999, II 1999-2010, III 2012-2018
  Punto Evo|small|2009-2012
  Qubo|van|2008-2020
  Scudo|van|1995-
  Sedici|suv_small|2006-2014
  Seicento|city|1998-2010
  Stilo|compact|2001-2008
  Tipo|compact|2015-
  Ulysse|mpv|1994-2010
  Uno|city|1983-2002
Ford|US|ford
  B-Max|mpv|2012-2017
  C-Max|mpv|2003-2019
  EcoSport|suv_small|2013-2022
  Edge|suv|2016-2020
  Escort|compact|1990-2000
  Fiesta|small|V 2001-2008, VI 2008-2017, VII 2017-2023
  Focus|compact|I 1998-2005, II 2004-2011, III 2010-2018, IV 2018-
  Fusion|small|2002-2012
  Galaxy|mpv|1995-
  Ka|city|1996-2016
  Ka+|city|2016-2020
  Kuga|suv|I 2008-2012, II 2012-2019, III 2019-
  Mondeo|midsize|III 2000-2007, IV 2007-2014, V 2014-2022
  Mustang|sports|2015-
  Mustang Mach-E|suv:e|2020-
  Puma|suv_small|2019-
  Ranger|pickup|1998-
  S-Max|mpv|2006-2023
  Sierra|midsize|1982-1993
  Tourneo Connect|van|2002-
  Tourneo Custom|van_large|2012-
  Transit|van_large|2000-
  Transit Connect|van|2002-
  Transit Custom|van_large|2012-
Honda|JP|honda
  Accord|midsize|1993-2015
  Civic|compact|VII 2001-2005, VIII 2005-2011, IX 2011-2017, X 2017-2021, XI 2022-
  CR-V|suv|II 2001-2006, III 2006-2012, IV 2012-2018, V 2018-2023
  CR-Z|compact:h|2010-2016
  e|small:e|2020-2024
  FR-V|mpv|2004-2009
  HR-V|suv_small|1999-
  Insight|compact:h|2009-2014
  Jazz|small|II 2001-2008, III 2008-2015, IV 2015-2020, V 2020-
  Legend|executive|1996-2012
  Prelude|coupe|1992-2001
  S2000|roadster|1999-2009
  Stream|mpv|2001-2006
  ZR-V|suv:h|2023-
Hyundai|KR|hyundai
  Accent|small|1994-2010
  Atos|city|1997-2008
  Bayon|suv_small|2021-
  Coupé|coupe|1996-2009
  Elantra|compact|2000-2010
  Getz|small|2002-2009
  i10|city|2008-
  i20|small|2008-
  i30|compact|FD 2007-2012, GD 2012-2017, PD 2017-
  i40|midsize|2011-2019
  ix20|mpv|2010-2019
  ix35|suv|2010-2015
  Ioniq|compact:hxe|2016-2022
  Ioniq 5|suv:e|2021-
  Ioniq 6|midsize:e|2022-
  Kona|suv_small:pdhe|2017-
  Matrix|mpv|2001-2010
  Santa Fe|suv|2001-
  Sonata|midsize|1998-2010
  Terracan|offroad|2001-2007
  Trajet|mpv|2000-2008
  Tucson|suv|2004-
Infiniti|JP|nissan
  EX|suv|2008-2013
  FX|suv_large|2003-2013
  G|coupe|2006-2013
  Q30|compact|2015-2019
  Q50|midsize|2013-2019
  Q70|executive|2013-2018
  QX70|suv_large|2013-2017
Isuzu|JP|generic
  D-Max|pickup|2002-
  Trooper|offroad|1991-2002
Iveco|IT|generic
  Daily|van_large|1990-
  Eurocargo|van_large|1991-
Jaguar|GB|generic
  E-Pace|suv|2017-
  F-Pace|suv|2016-
  F-Type|sports|2013-2024
  I-Pace|suv:e|2018-
  S-Type|executive|1999-2008
  X-Type|midsize|2001-2009
  XE|midsize|2015-
  XF|executive|2007-
  XJ|luxury|1997-2019
  XK|sports|1996-2014
Jeep|US|generic
  Avenger|suv_small:pe|2023-
  Cherokee|suv|2001-
  Commander|suv_large|2006-2010
  Compass|suv|2006-
  Grand Cherokee|suv_large|1993-
  Patriot|suv|2007-2016
  Renegade|suv_small|2014-
  Wrangler|offroad|1996-
Kia|KR|hyundai
  Carens|mpv|1999-2018
  Carnival|mpv|1998-
  Ceed|compact|ED 2006-2012, JD 2012-2018, CD 2018-
  Cerato|compact|2004-2009
  EV6|suv:e|2021-
  Magentis|midsize|2001-2010
  Niro|suv_small:hxe|2016-
  Opirus|executive|2003-2010
  Optima|midsize|2012-2020
  Picanto|city|2004-
  ProCeed|compact|2008-
  Rio|small|2000-
  Sorento|suv|2002-
  Soul|small:pdhe|2009-
  Sportage|suv|II 2004-2010, III 2010-2016, IV 2016-2021, V 2021-
  Stonic|suv_small|2017-
  Venga|mpv|2010-2019
  XCeed|suv_small|2019-
Lada|RU|generic
  110|compact|1995-2009
  Granta|small|2011-
  Kalina|small|2004-2018
  Niva|offroad|1977-
  Priora|compact|2007-2018
  Samara|compact|1984-2013
  Vesta|compact|2015-
Lamborghini|IT|generic
  Aventador|supercar|2011-2022
  Gallardo|supercar|2003-2013
  Huracán|supercar|2014-
  Murciélago|supercar|2001-2010
  Urus|suv_large:px|2018-
Lancia|IT|fiat
  Delta|compact|I 1979-1994, II 1993-1999, III 2008-2014
  Kappa|executive|1994-2000
  Lybra|midsize|1999-2005
  Musa|mpv|2004-2012
  Phedra|mpv|2002-2010
  Thema|executive|1984-1994
  Thesis|executive|2001-2009
  Voyager|mpv|2011-2015
  Ypsilon|city|1995-
  Zeta|mpv|1994-2002
Land Rover|GB|generic
  Defender|offroad|1990-
  Discovery|suv_large|1989-
  Discovery Sport|suv|2014-
  Freelander|suv|1997-2014
  Range Rover|suv_large|1994-
  Range Rover Evoque|suv|2011-
  Range Rover Sport|suv_large|2005-
  Range Rover Velar|suv_large|2017-
Lexus|JP|toyota
  CT|compact:h|2011-2022
  ES|executive:h|2018-
  GS|executive|1997-2020
  IS|midsize|1999-
  LS|luxury|1989-
  NX|suv:hx|2014-
  RC|coupe:p|2014-
  RX|suv_large|1998-
  UX|suv_small:he|2019-
Maserati|IT|generic
  Ghibli|executive|2013-
  GranTurismo|sports|2007-
  Grecale|suv|2022-
  Levante|suv_large|2016-
  Quattroporte|luxury|2003-
Mazda|JP|mazda
  2|small|2003-
  3|compact|BK 2003-2009, BL 2009-2013, BM 2013-2019, BP 2019-
  5|mpv|2005-2015
  6|midsize|GG 2002-2008, GH 2007-2013, GJ 2012-
  121|city|1991-2003
  323|compact|1989-2004
  626|midsize|1987-2002
  CX-3|suv_small|2015-
  CX-30|suv_small|2019-
  CX-5|suv|2012-
  CX-60|suv_large:pdx|2022-
  CX-7|suv|2007-2012
  MPV|mpv|1999-2006
  MX-30|suv_small:e|2020-
  MX-5|roadster|1989-
  Premacy|mpv|1999-2005
  RX-8|coupe:p|2003-2012
  Tribute|suv|2001-2008
Mercedes-Benz|DE|mercedes
  Classe A|compact|W168 1997-2004, W169 2004-2012, W176 2012-2018, W177 2018-
  Classe B|mpv|2005-
  Classe C|midsize|W202 1993-2000, W203 2000-2007, W204 2007-2014, W205 2014-2021, W206 2021-
  Classe CLA|compact|2013-
  Classe CLK|coupe|1997-2010
  Classe CLS|executive|2004-
  Classe E|executive|W210 1995-2002, W211 2002-2009, W212 2009-2016, W213 2016-2023
  Classe G|offroad|1979-
  Classe GLA|suv_small|2013-
  Classe GLB|suv|2019-
  Classe GLC|suv|2015-
  Classe GLE|suv_large|2015-
  Classe GLK|suv|2008-2015
  Classe GLS|suv_large|2015-
  Classe M|suv_large|1997-2015
  Classe R|mpv|2005-2013
  Classe S|luxury|W140 1991-1998, W220 1998-2005, W221 2005-2013, W222 2013-2020, W223 2020-
  Classe SL|sports|1989-
  Classe SLK|roadster|1996-2016
  Classe V|mpv|1996-
  Citan|van|2012-
  Sprinter|van_large|901 1995-2006, 906 2006-2018, 907 2018-
  Vaneo|mpv|2002-2005
  Viano|mpv|2003-2014
  Vito|van|W638 1996-2003, W639 2003-2014, W447 2014-
  EQA|suv_small:e|2021-
  EQC|suv:e|2019-
  EQS|luxury:e|2021-
MG|GB|generic
  3|small|2011-
  5|compact:e|2020-
  HS|suv:px|2019-
  MG4|compact:e|2022-
  Marvel R|suv:e|2021-2023
  ZS|suv_small:pe|2017-
  ZT|midsize|2001-2005
  TF|roadster|2002-2011
Mini|GB|generic
  Cooper|small|R50 2001-2006, R56 2006-2013, F56 2014-2024
  Clubman|compact|2007-2024
  Countryman|suv_small|2010-
  Paceman|suv_small|2013-2016
  Coupé|coupe|2011-2015
  Roadster|roadster|2012-2015
  Cabrio|roadster|2004-
Mitsubishi|JP|generic
  ASX|suv_small|2010-
  Carisma|compact|1995-2004
  Colt|small|1996-2012
  Eclipse Cross|suv:px|2018-
  Galant|midsize|1992-2003
  Grandis|mpv|2004-2011
  L200|pickup|1996-
  Lancer|compact|2003-2017
  Outlander|suv:pdx|2001-
  Pajero|offroad|1991-2021
  Pajero Pinin|suv_small|1999-2007
  Space Star|city|2012-
  Space Wagon|mpv|1998-2004
Nissan|JP|nissan
  350Z|sports|2003-2009
  370Z|sports|2009-2020
  Almera|compact|1995-2006
  Juke|suv_small|F15 2010-2019, F16 2019-
  Leaf|compact:e|2010-
  Micra|small|K11 1992-2003, K12 2002-2010, K13 2010-2017, K14 2017-
  Murano|suv|2003-2015
  Navara|pickup|D22 1997-2005, D40 2005-2015, D23 2014-
  Note|small|2006-2013
  NV200|van|2009-
  Pathfinder|offroad|2005-2014
  Patrol|offroad|1997-2010
  Primera|midsize|1990-2008
  Pulsar|compact|2014-2018
  Qashqai|suv|J10 2006-2013, J11 2013-2021, J12 2021-
  Terrano|offroad|1993-2006
  Tiida|compact|2007-2012
  X-Trail|suv|T30 2001-2007, T31 2007-2014, T32 2014-2022, T33 2022-
  Ariya|suv:e|2022-
  Townstar|van:pe|2022-
Opel|DE|opel
  Adam|city|2013-2019
  Agila|city|2000-2014
  Ampera|compact:x|2011-2015
  Antara|suv|2006-2015
  Astra|compact|F 1991-1998, G 1998-2009, H 2004-2014, J 2009-2015, K 2015-2021, L 2021-
  Calibra|coupe|1989-1997
  Cascada|roadster:pd|2013-2019
  Combo|van|B 1993-2001, C 2001-2011, D 2011-2018, E 2018-
  Corsa|small|B 1993-2000, C 2000-2006, D 2006-2014, E 2014-2019, F 2019-
  Frontera|offroad|1991-2004
  Grandland|suv|2017-
  Insignia|midsize|A 2008-2017, B 2017-2022
  Kadett|compact|1984-1991
  Karl|city|2015-2019
  Meriva|mpv|A 2003-2010, B 2010-2017
  Mokka|suv_small|2012-
  Movano|van_large|1998-
  Omega|executive|1994-2003
  Signum|midsize|2003-2008
  Tigra|coupe|1994-2009
  Vectra|midsize|B 1995-2002, C 2002-2008
  Vivaro|van|A 2001-2014, B 2014-2019, C 2019-
  Zafira|mpv|A 1999-2005, B 2005-2014, C 2011-2019
Peugeot|FR|psa
  106|city|1991-2003
  107|city|2005-2014
  108|city|2014-2021
  205|small|1983-1998
  206|small|1998-2012
  207|small|2006-2014
  208|small|I 2012-2019, II 2019-
  306|compact|1993-2002
  307|compact|2001-2008
  308|compact|I 2007-2013, II 2013-2021, III 2021-
  405|midsize|1987-1997
  406|midsize|1995-2004
  407|midsize|2004-2011
  508|midsize|I 2010-2018, II 2018-
  607|executive|1999-2010
  807|mpv|2002-2014
  1007|city|2005-2009
  2008|suv_small|I 2013-2019, II 2019-
  3008|suv|I 2008-2016, II 2016-2023, III 2023-
  4007|suv|2007-2012
  5008|suv|I 2009-2016, II 2017-2023
  Bipper|van|2008-2017
  Boxer|van_large|1994-
  Expert|van|1995-
  Partner|van|I 1996-2008, II 2008-2018, III 2018-
  Rifter|mpv|2018-
  RCZ|coupe|2010-2015
  iOn|city:e|2010-2020
Polestar|SE|generic
  1|sports:x|2019-2021
  2|midsize:e|2020-
  3|suv_large:e|2024-
Porsche|DE|generic
  911|sports|964 1989-1994, 993 1993-1998, 996 1997-2006, 997 2004-2012, 991 2011-2019, 992 2019-
  918|supercar:x|2013-2015
  Boxster|sports|1996-
  Cayenne|suv_large|2002-
  Cayman|sports|2005-
  Macan|suv_large|2014-
  Panamera|luxury|2009-
  Taycan|sports:e|2019-
Renault|FR|renault
  Arkana|suv:ph|2019-
  Austral|suv:ph|2022-
  Captur|suv_small|I 2013-2019, II 2019-
  Clio|small|I 1990-1998, II 1998-2012, III 2005-2014, IV 2012-2019, V 2019-
  Espace|mpv|III 1996-2002, IV 2002-2014, V 2015-2023
  Express|van|2021-
  Fluence|compact|2009-2016
  Grand Scénic|mpv|2004-2022
  Kadjar|suv|2015-2022
  Kangoo|van|I 1997-2008, II 2008-2021, III 2021-
  Koleos|suv|2008-2023
  Laguna|midsize|I 1993-2001, II 2001-2007, III 2007-2015
  Latitude|executive|2010-2015
  Master|van_large|II 1997-2010, III 2010-
  Mégane|compact|I 1995-2002, II 2002-2009, III 2008-2016, IV 2016-2022
  Modus|mpv|2004-2012
  Safrane|executive|1992-2000
  Scénic|mpv|I 1996-2003, II 2003-2009, III 2009-2016, IV 2016-2022
  Talisman|midsize|2015-2022
  Trafic|van|I 1980-2001, II 2001-2014, III 2014-
  Twingo|city|I 1993-2007, II 2007-2014, III 2014-
  Twizy|quadricycle|2012-2023
  Vel Satis|executive|2001-2009
  Zoe|small:e|2012-
Rover|GB|generic
  25|small|1999-2005
  45|compact|1999-2005
  75|midsize|1999-2005
  200|compact|1995-1999
  400|compact|1995-1999
  600|midsize|1993-1999
  Streetwise|small|2003-2005
Saab|SE|generic
  9-3|midsize|1998-2012
  9-5|executive|1997-2011
  900|compact|1993-1998
  9000|executive|1985-1998
Seat|ES|vag
  Alhambra|mpv|I 1996-2010, II 2010-2020
  Altea|mpv|2004-2015
  Arona|suv_small|2017-
  Ateca|suv|2016-
  Cordoba|small|1993-2009
  Exeo|midsize|2008-2013
  Ibiza|small|6K 1993-2002, 6L 2002-2008, 6J 2008-2017, 6F 2017-
  Inca|van|1995-2003
  Leon|compact|1M 1999-2006, 1P 2005-2012, 5F 2012-2020, KL 2020-
  Marbella|city|1986-1998
  Mii|city|2011-2021
  Tarraco|suv|2018-
  Toledo|compact|1991-2019
Škoda|CZ|vag
  Citigo|city|2011-2020
  Enyaq|suv:e|2020-
  Fabia|small|I 1999-2007, II 2007-2014, III 2014-2021, IV 2021-
  Favorit|small|1987-1995
  Felicia|small|1994-2001
  Kamiq|suv_small|2019-
  Karoq|suv|2017-
  Kodiaq|suv|2016-
  Octavia|compact|I 1996-2010, II 2004-2013, III 2012-2020, IV 2019-
  Rapid|compact|2012-2019
  Roomster|mpv|2006-2015
  Scala|compact|2019-
  Superb|midsize|I 2001-2008, II 2008-2015, III 2015-2023, IV 2023-
  Yeti|suv|2009-2017
Smart|DE|generic
  ForFour|city|I 2004-2006, II 2014-2021
  ForTwo|city:pde|1998-
  Roadster|roadster|2003-2005
  #1|suv_small:e|2022-
  #3|suv_small:e|2023-
SsangYong|KR|generic
  Actyon|suv|2006-2018
  Korando|suv|2010-
  Kyron|suv|2005-2014
  Musso|pickup|2018-
  Rexton|suv|2001-
  Rodius|mpv|2004-2019
  Tivoli|suv_small|2015-
  XLV|suv_small|2016-
Subaru|JP|generic
  BRZ|coupe:p|2012-
  Forester|suv|1997-
  Impreza|compact|1992-
  Justy|city|1995-2011
  Legacy|midsize|1989-2014
  Levorg|midsize|2015-
  Outback|midsize|1995-
  Tribeca|suv_large|2005-2014
  WRX|hot|2014-
  XV|suv_small|2012-
Suzuki|JP|generic
  Alto|city|1994-2014
  Baleno|small|1995-2002
  Celerio|city|2014-2020
  Grand Vitara|offroad|1998-2015
  Ignis|city|2000-
  Jimny|offroad|1998-
  Kizashi|midsize|2010-2014
  Liana|compact|2001-2007
  S-Cross|suv_small|2013-
  Splash|city|2008-2015
  Swift|small|2005-
  SX4|compact|2006-2014
  Vitara|suv_small|2015-
  Wagon R+|city|1997-2008
Tesla|US|generic
  Model 3|midsize:e|2019-
  Model S|luxury:e|2013-
  Model X|suv_large:e|2016-
  Model Y|suv:e|2021-
Toyota|JP|toyota
  Auris|compact|I 2006-2012, II 2012-2019
  Avensis|midsize|1997-2018
  Aygo|city|2005-2022
  Aygo X|city|2022-
  bZ4X|suv:e|2022-
  C-HR|suv|2016-
  Camry|midsize|1991-
  Carina|midsize|1992-1997
  Celica|coupe|1994-2006
  Corolla|compact|E110 1997-2002, E120 2001-2007, E150 2006-2013, E210 2019-
  Corolla Verso|mpv|2002-2009
  GR86|coupe:p|2022-
  GT86|coupe:p|2012-2021
  Hiace|van_large|1995-2012
  Highlander|suv_large:h|2020-
  Hilux|pickup|1997-
  iQ|city|2009-2015
  Land Cruiser|offroad|1996-
  Mirai|midsize:z|2015-
  MR2|roadster|1999-2007
  Prius|compact:h|I 2000-2003, II 2003-2009, III 2009-2015, IV 2015-2022, V 2023-
  Proace|van|2013-
  RAV4|suv|II 2000-2005, III 2005-2012, IV 2013-2018, V 2018-
  Starlet|city|1996-1999
  Supra|sports|2019-
  Urban Cruiser|suv_small|2009-2014
  Verso|mpv|2009-2018
  Yaris|small|I 1999-2005, II 2005-2011, III 2011-2020, IV 2020-
  Yaris Cross|suv_small:ph|2021-
Volkswagen|DE|vag
  Amarok|pickup|2010-
  Arteon|midsize|2017-
  Beetle|compact|1997-2019
  Bora|compact|1998-2005
  Caddy|van|II 1995-2004, III 2004-2015, IV 2015-2020, V 2020-
  California|van|1990-
  Corrado|coupe|1988-1995
  Crafter|van_large|2006-
  Eos|roadster:pd|2006-2015
  Fox|city|2005-2011
  Golf|compact:pdxle|III 1991-1998, IV 1997-2004, V 2003-2009, VI 2008-2013, VII 2012-2020, VIII 2019-
  Golf Plus|mpv|2005-2014
  Golf Sportsvan|mpv|2014-2020
  ID.3|compact:e|2019-
  ID.4|suv:e|2020-
  ID.5|suv:e|2021-
  ID. Buzz|mpv:e|2022-
  Jetta|compact|2005-2018
  Lupo|city|1998-2005
  Multivan|mpv|2003-
  Passat|midsize|B4 1993-1997, B5 1996-2005, B6 2005-2010, B7 2010-2015, B8 2014-2023, B9 2023-
  Passat CC|midsize|2008-2012
  Phaeton|luxury|2002-2016
  Polo|small|III 1994-2002, IV 2001-2009, V 2009-2017, VI 2017-
  Scirocco|coupe|2008-2017
  Sharan|mpv|I 1995-2010, II 2010-2022
  T-Cross|suv_small|2019-
  T-Roc|suv_small|2017-
  Taigo|suv_small|2021-
  Tiguan|suv|I 2007-2016, II 2016-2024, III 2024-
  Touareg|suv_large|I 2002-2010, II 2010-2018, III 2018-
  Touran|mpv|I 2003-2015, II 2015-
  Transporter|van|T4 1990-2003, T5 2003-2015, T6 2015-
  Up!|city:ple|2011-2023
  Vento|compact|1992-1998
Volvo|SE|volvo
  240|midsize|1974-1993
  440|compact|1987-1996
  460|compact|1988-1996
  850|midsize|1991-1997
  C30|compact|2006-2013
  C40|suv:e|2021-
  C70|coupe|1996-2013
  EX30|suv_small:e|2023-
  S40|midsize|1995-2012
  S60|midsize|2000-
  S70|midsize|1997-2000
  S80|executive|1998-2016
  S90|executive|2016-
  V40|compact|1995-2019
  V50|midsize|2004-2012
  V60|midsize|2010-
  V70|midsize|1996-2016
  V90|executive|2016-
  XC40|suv|2017-
  XC60|suv|2008-
  XC70|suv|1997-2016
  XC90|suv_large|2002-
`;

/** A model as the catalog lists it: a line's generation ("Golf VII"), or the line itself. */
export interface RealModel {
  name: string;
  yearFrom: number;
  /** null while it is still sold */
  yearTo: number | null;
}

export interface RealLine {
  name: string;
  vehicleClass: ClassName;
  /** the fuels the line is sold with, as letters, when not its class's own */
  fuels: string | null;
  models: RealModel[];
}

export interface RealMake {
  name: string;
  country: string;
  family: FamilyName;
  lines: RealLine[];
}

const YEARS = /^(?:(.+) )?(\d{4})-(\d{4})?$/;

function parseLine(text: string, where: string): RealLine {
  const [name, kind, years] = text.split('|').map((part) => part.trim());
  const [vehicleClass, fuels = null] = (kind ?? '').split(':');
  if (!name || !vehicleClass || !isClassName(vehicleClass) || !years)
    throw new Error(`real-vehicles: bad model line ${where}: ${text}`);
  if (fuels !== null && ![...fuels].every((letter) => FUEL_LETTERS[letter]))
    throw new Error(`real-vehicles: unknown fuel letter ${where}: ${text}`);
  const models = years.split(',').map((entry) => {
    const match = YEARS.exec(entry.trim());
    if (!match) throw new Error(`real-vehicles: bad years ${where}: ${entry}`);
    const [, generation, from, to] = match;
    return {
      name: generation ? `${name} ${generation}` : name,
      yearFrom: Number(from),
      yearTo: to ? Number(to) : null,
    };
  });
  return { name, vehicleClass, fuels, models };
}

export function realMakes(): RealMake[] {
  const makes: RealMake[] = [];
  for (const [index, text] of REAL_VEHICLES.split('\n').entries()) {
    if (!text.trim()) continue;
    const where = `(line ${index})`;
    if (text.startsWith(' ')) {
      const make = makes.at(-1);
      if (!make) throw new Error(`real-vehicles: a model line before any make ${where}`);
      make.lines.push(parseLine(text, where));
      continue;
    }
    const [name, country, family] = text.split('|');
    if (!name || !country || !family || !isFamilyName(family))
      throw new Error(`real-vehicles: bad make line ${where}: ${text}`);
    makes.push({ name, country, family, lines: [] });
  }
  return makes;
}

/** The classes' defaults as a make's family sells them, unless the line names its own fuels. */
export function lineFuels(line: RealLine, family: FamilyName): string {
  if (line.fuels) return line.fuels;
  const sold = ENGINE_FAMILIES[family].fuels;
  return [...VEHICLE_CLASSES[line.vehicleClass].fuels].filter((letter) => sold.includes(letter)).join('');
}
