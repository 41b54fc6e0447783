import { codedLabels } from './languages.js';

/** Part groups: the vehicle system a part belongs to. */
export const PART_GROUPS = codedLabels(`
engine|Motor|Engine|Motor|Moteur|Motor|Motore
timing|Distribuição|Timing drive|Distribución|Distribution|Motorsteuerung|Distribuzione
cooling|Arrefecimento do motor|Engine cooling|Refrigeración del motor|Refroidissement moteur|Motorkühlung|Raffreddamento motore
fuel|Alimentação de combustível|Fuel system|Alimentación de combustible|Alimentation en carburant|Kraftstoffanlage|Alimentazione carburante
ignition|Ignição e pré-aquecimento|Ignition and glow system|Encendido y precalentamiento|Allumage et préchauffage|Zünd- und Glühanlage|Accensione e preriscaldamento
air_intake|Admissão e sobrealimentação|Air intake and forced induction|Admisión y sobrealimentación|Admission et suralimentation|Luftansaugung und Aufladung|Aspirazione e sovralimentazione
exhaust|Escape|Exhaust system|Escape|Échappement|Abgasanlage|Scarico
filters|Filtros|Filters|Filtros|Filtres|Filter|Filtri
brakes|Travões|Brakes|Frenos|Freinage|Bremsanlage|Freni
suspension|Suspensão|Suspension|Suspensión|Suspension|Fahrwerk|Sospensioni
steering|Direção|Steering|Dirección|Direction|Lenkung|Sterzo
transmission|Transmissão|Transmission|Transmisión|Transmission|Kraftübertragung|Trasmissione
wheels|Rodas e pneus|Wheels and tyres|Ruedas y neumáticos|Roues et pneus|Räder und Reifen|Ruote e pneumatici
electrical|Sistema elétrico|Electrical system|Sistema eléctrico|Système électrique|Elektrik|Impianto elettrico
lighting|Iluminação|Lighting|Iluminación|Éclairage|Beleuchtung|Illuminazione
body|Carroçaria|Body|Carrocería|Carrosserie|Karosserie|Carrozzeria
glazing|Vidros e espelhos|Windows and mirrors|Cristales y espejos|Vitrages et rétroviseurs|Scheiben und Spiegel|Vetri e specchi
wipers|Limpeza dos vidros|Window cleaning|Limpieza de cristales|Essuyage|Scheibenreinigung|Tergicristalli e lavavetri
interior|Habitáculo|Interior|Habitáculo|Habitacle|Innenraum|Abitacolo
safety|Segurança passiva|Passive safety|Seguridad pasiva|Sécurité passive|Passive Sicherheit|Sicurezza passiva
climate|Climatização|Heating and air conditioning|Climatización|Chauffage et climatisation|Heizung und Klimaanlage|Climatizzazione
`);

/** Part types: what kind of component a part is, across systems. */
export const PART_TYPES = codedLabels(`
engine_internal|Componentes internos do motor|Internal engine parts|Piezas internas del motor|Pièces internes du moteur|Motorinnenteile|Parti interne del motore
sensor|Sensores|Sensors|Sensores|Capteurs|Sensoren|Sensori
filter|Filtros|Filters|Filtros|Filtres|Filter|Filtri
pump|Bombas|Pumps|Bombas|Pompes|Pumpen|Pompe
valve|Válvulas|Valves|Válvulas|Vannes et soupapes|Ventile|Valvole
seal|Juntas e vedantes|Gaskets and seals|Juntas y retenes|Joints d'étanchéité|Dichtungen|Guarnizioni e paraolio
hose|Tubos e mangueiras|Hoses and pipes|Tubos y manguitos|Durites et conduites|Schläuche und Leitungen|Tubi e manicotti
bearing|Rolamentos|Bearings|Rodamientos|Roulements|Lager|Cuscinetti
belt_chain|Correias e correntes|Belts and chains|Correas y cadenas|Courroies et chaînes|Riemen und Ketten|Cinghie e catene
pulley|Polias e tensores|Pulleys and tensioners|Poleas y tensores|Poulies et galets|Riemenscheiben und Spanner|Pulegge e tenditori
kit|Kits|Kits|Kits|Kits|Sätze|Kit
repair_kit|Kits de reparação|Repair kits|Kits de reparación|Kits de réparation|Reparatursätze|Kit di riparazione
mounting|Apoios e suportes|Mountings and brackets|Soportes|Supports|Lagerungen und Halter|Supporti
linkage|Braços e tirantes|Arms and links|Brazos y bieletas|Bras et biellettes|Lenker und Stangen|Bracci e tiranti
joint|Articulações e rótulas|Joints|Articulaciones y rótulas|Articulations et rotules|Gelenke|Giunti e snodi
damping|Amortecedores e molas|Dampers and springs|Amortiguadores y muelles|Amortisseurs et ressorts|Dämpfer und Federn|Ammortizzatori e molle
friction|Elementos de atrito|Friction parts|Elementos de fricción|Pièces de friction|Reibteile|Elementi d'attrito
hydraulic|Componentes hidráulicos|Hydraulic components|Componentes hidráulicos|Composants hydrauliques|Hydraulikteile|Componenti idraulici
heat_exchanger|Permutadores de calor|Heat exchangers|Intercambiadores de calor|Échangeurs thermiques|Wärmetauscher|Scambiatori di calore
reservoir|Depósitos|Tanks and reservoirs|Depósitos|Réservoirs|Behälter|Serbatoi
electric_machine|Motores de arranque e alternadores|Starters and alternators|Motores de arranque y alternadores|Démarreurs et alternateurs|Starter und Generatoren|Motorini di avviamento e alternatori
electric_motor|Motores elétricos e atuadores|Electric motors and actuators|Motores eléctricos y actuadores|Moteurs électriques et actionneurs|Elektromotoren und Stellglieder|Motorini elettrici e attuatori
electronic_module|Módulos eletrónicos|Electronic modules|Módulos electrónicos|Modules électroniques|Steuergeräte|Centraline elettroniche
switch|Interruptores e comandos|Switches and controls|Interruptores y mandos|Contacteurs et commandes|Schalter und Bedienelemente|Interruttori e comandi
relay_fuse|Relés e fusíveis|Relays and fuses|Relés y fusibles|Relais et fusibles|Relais und Sicherungen|Relè e fusibili
cable|Cabos|Cables|Cables|Câbles|Seilzüge und Kabel|Cavi
power_supply|Alimentação elétrica|Power supply|Alimentación eléctrica|Alimentation électrique|Stromversorgung|Alimentazione elettrica
ignition|Ignição|Ignition parts|Encendido|Allumage|Zündteile|Accensione
injection|Injeção|Injection|Inyección|Injection|Einspritzung|Iniezione
charger|Sobrealimentação|Forced induction|Sobrealimentación|Suralimentation|Aufladung|Sovralimentazione
exhaust_element|Elementos de escape|Exhaust elements|Elementos de escape|Éléments d'échappement|Abgasanlagenteile|Elementi di scarico
drivetrain|Órgãos de transmissão|Drivetrain components|Componentes de transmisión|Organes de transmission|Antriebsteile|Organi di trasmissione
steering_gear|Caixas e colunas de direção|Steering gears and columns|Cajas y columnas de dirección|Crémaillères et colonnes de direction|Lenkgetriebe und Lenksäulen|Scatole e piantoni sterzo
wheel|Rodas e pneus|Wheels and tyres|Ruedas y neumáticos|Roues et pneus|Räder und Reifen|Ruote e pneumatici
fastener|Fixações|Fasteners|Fijaciones|Fixations|Befestigungsteile|Elementi di fissaggio
lamp|Faróis e luzes|Lamps|Faros y luces|Feux et projecteurs|Leuchten und Scheinwerfer|Fari e luci
bulb|Lâmpadas|Bulbs|Lámparas|Ampoules|Glühlampen|Lampadine
body_panel|Painéis de carroçaria|Body panels|Paneles de carrocería|Éléments de carrosserie|Karosserieteile|Lamierati
lock_hinge|Fechaduras e dobradiças|Locks and hinges|Cerraduras y bisagras|Serrures et charnières|Schlösser und Scharniere|Serrature e cerniere
handle|Puxadores e manípulos|Handles|Manillas y tiradores|Poignées|Griffe|Maniglie
trim|Guarnições e frisos|Trim|Guarnecidos y molduras|Garnitures et baguettes|Verkleidungen und Leisten|Rivestimenti e modanature
cover|Tampas e coberturas|Covers and caps|Tapas y cubiertas|Couvercles et caches|Deckel und Abdeckungen|Coperchi e coperture
glass|Vidros|Glass|Cristales|Vitrages|Scheiben|Vetri
mirror|Espelhos retrovisores|Mirrors|Retrovisores|Rétroviseurs|Spiegel|Specchietti
wiper|Limpa-vidros|Wipers and washers|Limpiaparabrisas|Essuie-glaces et lave-glaces|Scheibenwischer und Waschanlage|Tergicristalli e lavavetri
seat|Bancos|Seats|Asientos|Sièges|Sitze|Sedili
instrument|Instrumentos e ecrãs|Instruments and displays|Instrumentos y pantallas|Instruments et écrans|Instrumente und Anzeigen|Strumenti e display
audio|Sinalização acústica e áudio|Horns and audio|Bocinas y audio|Avertisseurs et audio|Hupen und Audio|Avvisatori acustici e audio
safety|Segurança passiva|Restraint systems|Sistemas de retención|Systèmes de retenue|Rückhaltesysteme|Sistemi di ritenuta
`);
