/**
 * Makes whose model lines are real: the common European, Asian and American makes, with the
 * model names they sold in Europe. `make|ISO country|model, model, ...`. The rest of the vehicle
 * catalog is generated deterministically (vehicle-catalog.ts).
 */
export const REAL_VEHICLES = `
Abarth|IT|500, 595, 695, Punto Evo, 124 Spider, 500e
Alfa Romeo|IT|33, 75, 145, 146, 147, 155, 156, 159, 164, 166, Brera, Giulia, Giulietta, GT, GTV, MiTo, Spider, Stelvio, Tonale, 4C
Aston Martin|GB|DB7, DB9, DB11, DBS, Vantage, Rapide, DBX, Vanquish
Audi|DE|80, 90, 100, A1, A2, A3, A4, A4 Allroad, A5, A6, A6 Allroad, A7, A8, Q2, Q3, Q4 e-tron, Q5, Q7, Q8, R8, TT, e-tron, e-tron GT, RS 3, RS 4, RS 6
Bentley|GB|Arnage, Bentayga, Continental GT, Flying Spur, Mulsanne
BMW|DE|Série 1, Série 2, Série 3, Série 4, Série 5, Série 6, Série 7, Série 8, X1, X2, X3, X4, X5, X6, X7, Z3, Z4, i3, i4, iX, iX3, M3, M5
BYD|CN|Atto 3, Dolphin, Han, Seal, Tang
Cadillac|US|CTS, Escalade, SRX, XT4, XT5, Lyriq
Chevrolet|US|Aveo, Camaro, Captiva, Corvette, Cruze, Epica, Kalos, Lacetti, Matiz, Orlando, Spark, Trax, Volt
Chrysler|US|300C, Crossfire, Grand Voyager, PT Cruiser, Sebring, Voyager
Citroën|FR|AX, Berlingo, C1, C2, C3, C3 Aircross, C3 Picasso, C4, C4 Cactus, C4 Picasso, C5, C5 Aircross, C5 X, C6, C8, C-Crosser, C-Elysée, DS3, DS4, DS5, Jumper, Jumpy, Nemo, Saxo, Xantia, Xsara, Xsara Picasso, ZX, ë-C4
Cupra|ES|Born, Formentor, Leon, Ateca, Tavascan
Dacia|RO|Dokker, Duster, Jogger, Lodgy, Logan, Sandero, Spring
Daewoo|KR|Espero, Kalos, Lanos, Matiz, Nexia, Nubira, Tacuma
Daihatsu|JP|Charade, Cuore, Materia, Sirion, Terios, YRV
Dodge|US|Caliber, Challenger, Charger, Journey, Nitro, RAM
DS Automobiles|FR|DS 3, DS 3 Crossback, DS 4, DS 5, DS 7, DS 9
Ferrari|IT|296, 360, 430, 458, 488, 599, 612, California, F8, Portofino, Roma, SF90
Fiat|IT|500, 500L, 500X, 600, Bravo, Brava, Croma, Doblò, Ducato, Fiorino, Freemont, Grande Punto, Idea, Linea, Marea, Multipla, Palio, Panda, Punto, Punto Evo, Qubo, Scudo, Sedici, Seicento, Stilo, Tipo, Ulysse, Uno
Ford|US|B-Max, C-Max, EcoSport, Edge, Escort, Fiesta, Focus, Fusion, Galaxy, Ka, Ka+, Kuga, Mondeo, Mustang, Mustang Mach-E, Puma, Ranger, S-Max, Sierra, Tourneo Connect, Tourneo Custom, Transit, Transit Connect, Transit Custom
Honda|JP|Accord, Civic, CR-V, CR-Z, e, FR-V, HR-V, Insight, Jazz, Legend, Prelude, S2000, Stream, ZR-V
Hyundai|KR|Accent, Atos, Bayon, Coupé, Elantra, Getz, i10, i20, i30, i40, ix20, ix35, Ioniq, Ioniq 5, Ioniq 6, Kona, Matrix, Santa Fe, Sonata, Terracan, Trajet, Tucson
Infiniti|JP|EX, FX, G, Q30, Q50, Q70, QX70
Isuzu|JP|D-Max, Trooper
Iveco|IT|Daily, Eurocargo
Jaguar|GB|E-Pace, F-Pace, F-Type, I-Pace, S-Type, X-Type, XE, XF, XJ, XK
Jeep|US|Avenger, Cherokee, Commander, Compass, Grand Cherokee, Patriot, Renegade, Wrangler
Kia|KR|Carens, Carnival, Ceed, Cerato, EV6, Magentis, Niro, Opirus, Optima, Picanto, ProCeed, Rio, Sorento, Soul, Sportage, Stonic, Venga, XCeed
Lada|RU|110, Granta, Kalina, Niva, Priora, Samara, Vesta
Lamborghini|IT|Aventador, Gallardo, Huracán, Murciélago, Urus
Lancia|IT|Delta, Kappa, Lybra, Musa, Phedra, Thema, Thesis, Voyager, Ypsilon, Zeta
Land Rover|GB|Defender, Discovery, Discovery Sport, Freelander, Range Rover, Range Rover Evoque, Range Rover Sport, Range Rover Velar
Lexus|JP|CT, ES, GS, IS, LS, NX, RC, RX, UX
Maserati|IT|Ghibli, GranTurismo, Grecale, Levante, Quattroporte
Mazda|JP|2, 3, 5, 6, 121, 323, 626, CX-3, CX-30, CX-5, CX-60, CX-7, MPV, MX-30, MX-5, Premacy, RX-8, Tribute
Mercedes-Benz|DE|Classe A, Classe B, Classe C, Classe CLA, Classe CLK, Classe CLS, Classe E, Classe G, Classe GLA, Classe GLB, Classe GLC, Classe GLE, Classe GLK, Classe GLS, Classe M, Classe R, Classe S, Classe SL, Classe SLK, Classe V, Citan, Sprinter, Vaneo, Viano, Vito, EQA, EQC, EQS
MG|GB|3, 4, 5, HS, MG4, Marvel R, ZS, ZT, TF
Mini|GB|Cooper, Clubman, Countryman, Paceman, Coupé, Roadster, Cabrio
Mitsubishi|JP|ASX, Carisma, Colt, Eclipse Cross, Galant, Grandis, L200, Lancer, Outlander, Pajero, Pajero Pinin, Space Star, Space Wagon
Nissan|JP|350Z, 370Z, Almera, Juke, Leaf, Micra, Murano, Navara, Note, NV200, Pathfinder, Patrol, Primera, Pulsar, Qashqai, Terrano, Tiida, X-Trail, Ariya, Townstar
Opel|DE|Adam, Agila, Ampera, Antara, Astra, Calibra, Cascada, Combo, Corsa, Frontera, Grandland, Insignia, Kadett, Karl, Meriva, Mokka, Movano, Omega, Signum, Tigra, Vectra, Vivaro, Zafira
Peugeot|FR|106, 107, 108, 205, 206, 207, 208, 306, 307, 308, 405, 406, 407, 508, 607, 807, 1007, 2008, 3008, 4007, 5008, Bipper, Boxer, Expert, Partner, Rifter, RCZ, iOn
Polestar|SE|1, 2, 3
Porsche|DE|911, 918, Boxster, Cayenne, Cayman, Macan, Panamera, Taycan
Renault|FR|Arkana, Austral, Captur, Clio, Espace, Express, Fluence, Grand Scénic, Kadjar, Kangoo, Koleos, Laguna, Latitude, Master, Mégane, Modus, Safrane, Scénic, Talisman, Trafic, Twingo, Twizy, Vel Satis, Zoe
Rover|GB|25, 45, 75, 200, 400, 600, Streetwise
Saab|SE|9-3, 9-5, 900, 9000
Seat|ES|Alhambra, Altea, Arona, Ateca, Cordoba, Exeo, Ibiza, Inca, Leon, Marbella, Mii, Tarraco, Toledo
Škoda|CZ|Citigo, Enyaq, Fabia, Favorit, Felicia, Kamiq, Karoq, Kodiaq, Octavia, Rapid, Roomster, Scala, Superb, Yeti
Smart|DE|ForFour, ForTwo, Roadster, #1, #3
SsangYong|KR|Actyon, Korando, Kyron, Musso, Rexton, Rodius, Tivoli, XLV
Subaru|JP|BRZ, Forester, Impreza, Justy, Legacy, Levorg, Outback, Tribeca, WRX, XV
Suzuki|JP|Alto, Baleno, Celerio, Grand Vitara, Ignis, Jimny, Kizashi, Liana, S-Cross, Splash, Swift, SX4, Vitara, Wagon R+
Tesla|US|Model 3, Model S, Model X, Model Y
Toyota|JP|Auris, Avensis, Aygo, Aygo X, bZ4X, C-HR, Camry, Carina, Celica, Corolla, Corolla Verso, GR86, GT86, Hiace, Highlander, Hilux, iQ, Land Cruiser, Mirai, MR2, Prius, Proace, RAV4, Starlet, Supra, Urban Cruiser, Verso, Yaris, Yaris Cross
Volkswagen|DE|Amarok, Arteon, Beetle, Bora, Caddy, California, Corrado, Crafter, Eos, Fox, Golf, Golf Plus, Golf Sportsvan, ID.3, ID.4, ID.5, ID. Buzz, Jetta, Lupo, Multivan, Passat, Passat CC, Phaeton, Polo, Scirocco, Sharan, T-Cross, T-Roc, Taigo, Tiguan, Touareg, Touran, Transporter, Up!, Vento
Volvo|SE|240, 440, 460, 850, C30, C40, C70, EX30, S40, S60, S70, S80, S90, V40, V50, V60, V70, V90, XC40, XC60, XC70, XC90
`;

export interface RealMake {
  name: string;
  country: string;
  models: string[];
}

export function realMakes(): RealMake[] {
  return REAL_VEHICLES.trim()
    .split('\n')
    .map((line) => {
      const [name, country, models] = line.split('|');
      return { name: name!, country: country!, models: models!.split(',').map((m) => m.trim()) };
    });
}
