/**
 * Real automotive parts, each with its group and type (part-classes.ts), the position dimensions
 * it is sold by (a = front/rear, v = upper/lower, d = inner/outer, s = left/right) and the
 * grammatical gender/number of its noun in pt, es, fr, it (m, f, M = masc. plural, F = fem.
 * plural) so positions agree: "Pastilhas de travão dianteiras", "Braccio oscillante anteriore".
 *
 * `code|group|type|dims|agreement|pt|en|es|fr|de|it`. Positioned parts come first: the catalog
 * takes every position of each, then as many unpositioned parts as it needs to hold exactly
 * 1,656 (parts.ts).
 */
export const POSITIONED_PARTS = `
suspension_bush|suspension|mounting|avds|mmmf|Casquilho do braço de suspensão|Control arm bush|Silentblock del brazo de suspensión|Silentbloc de bras de suspension|Querlenkerlager|Boccola del braccio oscillante
control_arm|suspension|linkage|avds|mmmm|Braço de suspensão|Control arm|Brazo de suspensión|Bras de suspension|Querlenker|Braccio oscillante
ball_joint|suspension|joint|avds|fffm|Rótula de suspensão|Ball joint|Rótula de suspensión|Rotule de suspension|Traggelenk|Giunto sferico
cv_joint|transmission|drivetrain|ads|ffmm|Junta homocinética|CV joint|Junta homocinética|Joint homocinétique|Gleichlaufgelenk|Giunto omocinetico
driveshaft_boot|transmission|seal|ads|mmmf|Fole da transmissão|Drive shaft boot|Fuelle de transmisión|Soufflet de cardan|Achsmanschette|Cuffia del semiasse
door_hinge|body|lock_hinge|avs|ffff|Dobradiça de porta|Door hinge|Bisagra de puerta|Charnière de porte|Türscharnier|Cerniera della portiera
door_handle|body|handle|ads|mmff|Puxador de porta|Door handle|Manilla de puerta|Poignée de porte|Türgriff|Maniglia della portiera
window_seal|glazing|seal|ads|mfmf|Vedante do vidro da porta|Door window seal|Junta del cristal de puerta|Joint de vitre de porte|Fensterschachtleiste|Guarnizione del vetro portiera
brake_pad_sensor|brakes|sensor|ads|mmmm|Sensor de desgaste das pastilhas|Brake pad wear sensor|Sensor de desgaste de pastillas|Témoin d'usure de plaquettes|Bremsbelag-Verschleißsensor|Sensore usura pastiglie
wheel_arch_liner|body|trim|ads|fmmm|Cava de roda|Wheel arch liner|Paso de rueda|Pare-boue de passage de roue|Radhausschale|Parasassi passaruota
stabilizer_bush|suspension|mounting|avds|mmmf|Casquilho da barra estabilizadora|Anti-roll bar bush|Casquillo de la barra estabilizadora|Palier de barre stabilisatrice|Stabilisatorlager|Boccola barra stabilizzatrice
shock_absorber_bush|suspension|mounting|avds|mmmf|Casquilho do amortecedor|Shock absorber bush|Silentblock del amortiguador|Silentbloc d'amortisseur|Stoßdämpferbuchse|Boccola ammortizzatore
control_arm_bolt|suspension|fastener|avds|mmfm|Parafuso do braço de suspensão|Control arm bolt|Tornillo del brazo de suspensión|Vis de bras de suspension|Querlenkerschraube|Bullone braccio oscillante
control_arm_bracket|suspension|mounting|avds|mmmm|Suporte do braço de suspensão|Control arm bracket|Soporte del brazo de suspensión|Support de bras de suspension|Querlenkerhalter|Staffa braccio oscillante
control_arm_repair_kit|suspension|repair_kit|avds|mmmm|Kit de reparação do braço de suspensão|Control arm repair kit|Kit de reparación del brazo de suspensión|Kit de réparation de bras de suspension|Querlenker-Reparatursatz|Kit riparazione braccio oscillante
door_seal|body|seal|ads|fffF|Borracha da porta|Door seal|Goma de puerta|Joint de porte|Türdichtung|Guarnizione portiera
door_release_cable|body|cable|ads|mmmm|Cabo de abertura da porta|Door release cable|Cable de apertura de puerta|Câble d'ouverture de porte|Türöffnerzug|Cavo apertura portiera
window_trim|glazing|trim|ads|mfff|Friso do vidro da porta|Door window trim|Moldura del cristal de puerta|Baguette de vitre de porte|Fensterleiste|Modanatura vetro portiera
cv_joint_kit|transmission|kit|ads|mmmm|Kit de junta homocinética|CV joint kit|Kit de junta homocinética|Kit de joint homocinétique|Gelenksatz Antriebswelle|Kit giunto omocinetico
suspension_link|suspension|linkage|avs|mmff|Tirante de suspensão|Suspension link|Tirante de suspensión|Biellette de suspension|Lenker|Tirante sospensione
tension_strut|suspension|linkage|avs|mmmm|Braço tensor|Tension strut|Brazo tensor|Tirant de chasse|Zugstrebe|Puntone di reazione
trailing_arm|suspension|linkage|avs|mmmm|Braço oscilante longitudinal|Trailing arm|Brazo longitudinal|Bras longitudinal|Längslenker|Braccio longitudinale
door_check|body|lock_hinge|avs|mmmm|Batente de porta|Door check strap|Retenedor de puerta|Arrêt de porte|Türfeststeller|Fermaporta
wheel_arch_trim|body|trim|ads|ffff|Moldura do guarda-lamas|Wheel arch trim|Moldura del paso de rueda|Baguette de passage de roue|Radlaufverbreiterung|Modanatura passaruota
suspension_link_bush|suspension|mounting|avs|mmmf|Casquilho do tirante de suspensão|Suspension link bush|Casquillo del tirante de suspensión|Silentbloc de biellette de suspension|Lenkerlager|Boccola tirante sospensione
stabilizer_link|suspension|linkage|avs|fffm|Biela da barra estabilizadora|Stabiliser link|Bieleta de la barra estabilizadora|Biellette de barre stabilisatrice|Koppelstange|Bielletta barra stabilizzatrice
shock_absorber|suspension|damping|as|mmmm|Amortecedor|Shock absorber|Amortiguador|Amortisseur|Stoßdämpfer|Ammortizzatore
coil_spring|suspension|damping|as|fmmf|Mola de suspensão|Coil spring|Muelle de suspensión|Ressort de suspension|Fahrwerksfeder|Molla elicoidale
strut_mount|suspension|mounting|as|mmfm|Apoio do amortecedor|Strut top mount|Copela del amortiguador|Coupelle d'amortisseur|Federbeinstützlager|Supporto ammortizzatore
bump_stop|suspension|damping|as|mmFm|Batente do amortecedor|Bump stop|Tope de suspensión|Butée de suspension|Anschlagpuffer|Tampone paracolpi
brake_caliper|brakes|hydraulic|as|ffmf|Pinça de travão|Brake caliper|Pinza de freno|Étrier de frein|Bremssattel|Pinza freno
brake_hose|brakes|hose|as|mmmm|Tubo flexível de travão|Brake hose|Latiguillo de freno|Flexible de frein|Bremsschlauch|Tubo flessibile freno
wheel_bearing|wheels|bearing|as|mmmm|Rolamento de roda|Wheel bearing|Rodamiento de rueda|Roulement de roue|Radlager|Cuscinetto ruota
wheel_hub|wheels|bearing|as|mmmm|Cubo de roda|Wheel hub|Buje de rueda|Moyeu de roue|Radnabe|Mozzo ruota
abs_sensor|brakes|sensor|as|mmmm|Sensor ABS|ABS wheel speed sensor|Sensor ABS|Capteur ABS|ABS-Sensor|Sensore ABS
drive_shaft|transmission|drivetrain|as|fmff|Transmissão|Drive shaft|Palier|Transmission|Antriebswelle|Semiasse
door_assembly|body|body_panel|as|fffF|Porta|Door|Puerta|Porte|Tür|Portiera
window_regulator|glazing|electric_motor|as|mmmm|Elevador de vidro|Window regulator|Elevalunas|Lève-vitre|Fensterheber|Alzacristallo
door_lock|body|lock_hinge|as|ffff|Fechadura de porta|Door lock|Cerradura de puerta|Serrure de porte|Türschloss|Serratura portiera
door_glass|glazing|glass|as|mmfm|Vidro da porta|Door glass|Cristal de puerta|Vitre de porte|Türscheibe|Vetro portiera
door_trim_panel|interior|trim|as|mmmm|Painel interior da porta|Door trim panel|Panel interior de puerta|Panneau de porte|Türverkleidung|Pannello interno portiera
door_speaker|interior|audio|as|mmmm|Altifalante da porta|Door speaker|Altavoz de puerta|Haut-parleur de porte|Türlautsprecher|Altoparlante portiera
seat_belt|safety|safety|as|mmff|Cinto de segurança|Seat belt|Cinturón de seguridad|Ceinture de sécurité|Sicherheitsgurt|Cintura di sicurezza
brake_drum|brakes|friction|as|mmmm|Tambor de travão|Brake drum|Tambor de freno|Tambour de frein|Bremstrommel|Tamburo freno
handbrake_cable|brakes|cable|as|mmmm|Cabo do travão de mão|Handbrake cable|Cable de freno de mano|Câble de frein à main|Handbremsseil|Cavo freno a mano
mud_flap|body|trim|as|mmFm|Guarda-lamas de borracha|Mud flap|Faldilla|Bavette garde-boue|Schmutzfänger|Paraspruzzi
parking_sensor|electrical|sensor|as|mmmm|Sensor de estacionamento|Parking sensor|Sensor de aparcamiento|Capteur de stationnement|Parksensor|Sensore di parcheggio
fog_lamp|lighting|lamp|as|mmmm|Farol de nevoeiro|Fog lamp|Faro antiniebla|Projecteur antibrouillard|Nebelscheinwerfer|Fendinebbia
indicator_lamp|lighting|lamp|as|mmmm|Pisca|Indicator lamp|Intermitente|Clignotant|Blinkleuchte|Freccia
wheel_nut|wheels|fastener|as|fFmm|Porca de roda|Wheel nut|Tuerca de rueda|Écrou de roue|Radmutter|Dado ruota
brake_disc|brakes|friction|a|mmmm|Disco de travão|Brake disc|Disco de freno|Disque de frein|Bremsscheibe|Disco freno
brake_pads|brakes|friction|a|FFFF|Pastilhas de travão|Brake pads|Pastillas de freno|Plaquettes de frein|Bremsbeläge|Pastiglie freno
brake_shoes|brakes|friction|a|FFFF|Maxilas de travão|Brake shoes|Zapatas de freno|Mâchoires de frein|Bremsbacken|Ganasce freno
stabilizer_bar|suspension|linkage|a|ffff|Barra estabilizadora|Anti-roll bar|Barra estabilizadora|Barre stabilisatrice|Stabilisator|Barra stabilizzatrice
bumper|body|body_panel|a|mmmm|Para-choques|Bumper|Parachoques|Pare-chocs|Stoßstange|Paraurti
bumper_bracket|body|mounting|a|mmmm|Suporte do para-choques|Bumper bracket|Soporte del parachoques|Support de pare-chocs|Stoßstangenhalter|Supporto paraurti
bumper_grille|body|trim|a|fffF|Grelha do para-choques|Bumper grille|Rejilla del parachoques|Grille de pare-chocs|Stoßstangengitter|Griglia paraurti
subframe|suspension|mounting|a|mmmm|Berço do motor|Subframe|Subchasis|Berceau|Achsträger|Telaio ausiliario
wiper_blade|wipers|wiper|a|fffF|Escova limpa-vidros|Wiper blade|Escobilla limpiaparabrisas|Balai d'essuie-glace|Wischerblatt|Spazzola tergicristallo
wiper_motor|wipers|electric_motor|a|mmmm|Motor do limpa-vidros|Wiper motor|Motor del limpiaparabrisas|Moteur d'essuie-glace|Wischermotor|Motorino tergicristallo
axle_beam|suspension|linkage|a|mmmm|Eixo|Axle beam|Eje|Essieu|Achskörper|Assale
brake_master_hose|brakes|hose|a|mmmm|Tubo rígido de travão|Brake pipe|Tubo rígido de freno|Conduite de frein|Bremsleitung|Tubo rigido freno
camera|electrical|sensor|a|fffF|Câmara de estacionamento|Parking camera|Cámara de aparcamiento|Caméra de recul|Parkkamera|Telecamera di parcheggio
headlamp|lighting|lamp|s|mmmm|Farol|Headlamp|Faro|Phare|Scheinwerfer|Faro
tail_lamp|lighting|lamp|s|mmmm|Farolim traseiro|Tail lamp|Piloto trasero|Feu arrière|Rückleuchte|Fanale posteriore
headlamp_bulb_holder|lighting|bulb|s|mmmm|Casquilho de lâmpada do farol|Headlamp bulb holder|Portalámparas del faro|Porte-ampoule de phare|Lampenfassung|Portalampada faro
door_mirror|glazing|mirror|s|mmmm|Espelho retrovisor exterior|Door mirror|Retrovisor exterior|Rétroviseur extérieur|Außenspiegel|Specchietto retrovisore esterno
mirror_glass|glazing|mirror|s|mmmm|Vidro do espelho retrovisor|Mirror glass|Cristal del retrovisor|Glace de rétroviseur|Spiegelglas|Vetro specchietto
mirror_cover|glazing|cover|s|fffF|Capa do espelho retrovisor|Mirror cover|Carcasa del retrovisor|Coque de rétroviseur|Spiegelkappe|Calotta specchietto
wing|body|body_panel|s|mmfm|Guarda-lamas|Wing|Aleta|Aile|Kotflügel|Parafango
quarter_glass|glazing|glass|s|mmfm|Vidro lateral fixo|Quarter glass|Cristal lateral fijo|Vitre de custode|Seitenscheibe hinten|Vetro laterale fisso
seat|interior|seat|s|mmmm|Banco|Seat|Asiento|Siège|Sitz|Sedile
side_airbag|safety|safety|s|mmmm|Airbag lateral|Side airbag|Airbag lateral|Airbag latéral|Seitenairbag|Airbag laterale
tie_rod_end|steering|joint|s|mmff|Terminal de direção|Tie rod end|Rótula de dirección|Rotule de direction|Spurstangenkopf|Testina dello sterzo
tie_rod|steering|linkage|s|ffFm|Barra de direção|Tie rod|Barra de dirección|Biellette de direction|Spurstange|Tirante sterzo
steering_knuckle|steering|linkage|s|fmmm|Manga de eixo|Steering knuckle|Mangueta|Fusée d'essieu|Achsschenkel|Fuso a snodo
sill_panel|body|body_panel|s|fmmm|Embaladeira|Sill panel|Estribo|Bas de caisse|Schweller|Sottoporta
a_pillar_trim|interior|trim|s|ffmm|Guarnição do pilar A|A-pillar trim|Guarnecido del pilar A|Garniture de montant A|A-Säulenverkleidung|Rivestimento montante A
engine_mount|engine|mounting|s|mmmm|Apoio do motor|Engine mount|Soporte del motor|Support moteur|Motorlager|Supporto motore
`;

/** Parts sold without a position. `code|group|type|pt|en|es|fr|de|it` */
export const UNPOSITIONED_PARTS = `
piston|engine|engine_internal|Pistão|Piston|Pistón|Piston|Kolben|Pistone
piston_rings|engine|engine_internal|Segmentos do pistão|Piston rings|Segmentos de pistón|Segments de piston|Kolbenringe|Fasce elastiche
connecting_rod|engine|engine_internal|Biela|Connecting rod|Biela|Bielle|Pleuelstange|Biella
crankshaft|engine|engine_internal|Cambota|Crankshaft|Cigüeñal|Vilebrequin|Kurbelwelle|Albero motore
camshaft|engine|engine_internal|Árvore de cames|Camshaft|Árbol de levas|Arbre à cames|Nockenwelle|Albero a camme
intake_valve|engine|valve|Válvula de admissão|Intake valve|Válvula de admisión|Soupape d'admission|Einlassventil|Valvola di aspirazione
exhaust_valve|engine|valve|Válvula de escape|Exhaust valve|Válvula de escape|Soupape d'échappement|Auslassventil|Valvola di scarico
valve_spring|engine|engine_internal|Mola de válvula|Valve spring|Muelle de válvula|Ressort de soupape|Ventilfeder|Molla valvola
rocker_arm|engine|engine_internal|Balanceiro|Rocker arm|Balancín|Culbuteur|Kipphebel|Bilanciere
hydraulic_lifter|engine|engine_internal|Touche hidráulico|Hydraulic lifter|Taqué hidráulico|Poussoir hydraulique|Hydrostößel|Punteria idraulica
cylinder_head|engine|engine_internal|Cabeça do motor|Cylinder head|Culata|Culasse|Zylinderkopf|Testata
head_gasket|engine|seal|Junta da cabeça do motor|Cylinder head gasket|Junta de culata|Joint de culasse|Zylinderkopfdichtung|Guarnizione della testata
valve_cover_gasket|engine|seal|Junta da tampa das válvulas|Valve cover gasket|Junta de la tapa de balancines|Joint de cache-culbuteurs|Ventildeckeldichtung|Guarnizione coperchio punterie
valve_cover|engine|cover|Tampa das válvulas|Valve cover|Tapa de balancines|Couvre-culasse|Ventildeckel|Coperchio punterie
oil_pan|engine|reservoir|Cárter de óleo|Oil sump|Cárter de aceite|Carter d'huile|Ölwanne|Coppa dell'olio
oil_pump|engine|pump|Bomba de óleo|Oil pump|Bomba de aceite|Pompe à huile|Ölpumpe|Pompa dell'olio
oil_cooler|engine|heat_exchanger|Radiador de óleo|Oil cooler|Radiador de aceite|Refroidisseur d'huile|Ölkühler|Radiatore dell'olio
oil_dipstick|engine|engine_internal|Vareta do óleo|Oil dipstick|Varilla del aceite|Jauge d'huile|Ölmessstab|Astina livello olio
oil_filler_cap|engine|cover|Tampão de enchimento do óleo|Oil filler cap|Tapón de llenado de aceite|Bouchon de remplissage d'huile|Öleinfülldeckel|Tappo rifornimento olio
crankshaft_seal|engine|seal|Retentor da cambota|Crankshaft oil seal|Retén del cigüeñal|Joint spi de vilebrequin|Kurbelwellendichtring|Paraolio albero motore
camshaft_seal|engine|seal|Retentor da árvore de cames|Camshaft oil seal|Retén del árbol de levas|Joint spi d'arbre à cames|Nockenwellendichtring|Paraolio albero a camme
flywheel|transmission|drivetrain|Volante do motor|Flywheel|Volante motor|Volant moteur|Schwungrad|Volano
dual_mass_flywheel|transmission|drivetrain|Volante bimassa|Dual-mass flywheel|Volante bimasa|Volant bimasse|Zweimassenschwungrad|Volano bimassa
clutch_kit|transmission|kit|Kit de embraiagem|Clutch kit|Kit de embrague|Kit d'embrayage|Kupplungssatz|Kit frizione
clutch_disc|transmission|friction|Disco de embraiagem|Clutch disc|Disco de embrague|Disque d'embrayage|Kupplungsscheibe|Disco frizione
clutch_pressure_plate|transmission|friction|Prato de embraiagem|Clutch pressure plate|Maza de embrague|Mécanisme d'embrayage|Kupplungsdruckplatte|Spingidisco frizione
release_bearing|transmission|bearing|Rolamento de embraiagem|Clutch release bearing|Cojinete de embrague|Butée d'embrayage|Ausrücklager|Cuscinetto reggispinta
clutch_master_cylinder|transmission|hydraulic|Bomba de embraiagem|Clutch master cylinder|Bomba de embrague|Émetteur d'embrayage|Kupplungsgeberzylinder|Pompa frizione
clutch_slave_cylinder|transmission|hydraulic|Cilindro recetor da embraiagem|Clutch slave cylinder|Bombín de embrague|Récepteur d'embrayage|Kupplungsnehmerzylinder|Cilindretto frizione
clutch_cable|transmission|cable|Cabo de embraiagem|Clutch cable|Cable de embrague|Câble d'embrayage|Kupplungsseil|Cavo frizione
gearbox|transmission|drivetrain|Caixa de velocidades|Gearbox|Caja de cambios|Boîte de vitesses|Schaltgetriebe|Cambio
automatic_gearbox|transmission|drivetrain|Caixa de velocidades automática|Automatic gearbox|Caja de cambios automática|Boîte de vitesses automatique|Automatikgetriebe|Cambio automatico
gear_lever|transmission|switch|Alavanca de velocidades|Gear lever|Palanca de cambios|Levier de vitesses|Schalthebel|Leva del cambio
gear_linkage|transmission|cable|Cabos de comando das mudanças|Gear selector cables|Cables del selector de marchas|Câbles de commande de boîte|Schaltseile|Cavi comando cambio
gearbox_mount|transmission|mounting|Apoio da caixa de velocidades|Gearbox mount|Soporte de la caja de cambios|Support de boîte de vitesses|Getriebelager|Supporto cambio
differential|transmission|drivetrain|Diferencial|Differential|Diferencial|Différentiel|Differential|Differenziale
propshaft|transmission|drivetrain|Veio de transmissão|Propeller shaft|Árbol de transmisión|Arbre de transmission|Kardanwelle|Albero di trasmissione
propshaft_support|transmission|bearing|Suporte central do veio de transmissão|Propshaft centre bearing|Soporte central del árbol de transmisión|Palier central d'arbre de transmission|Kardanwellen-Mittellager|Supporto centrale albero di trasmissione
transfer_case|transmission|drivetrain|Caixa de transferência|Transfer case|Caja de transferencia|Boîte de transfert|Verteilergetriebe|Ripartitore di coppia
timing_belt|timing|belt_chain|Correia de distribuição|Timing belt|Correa de distribución|Courroie de distribution|Zahnriemen|Cinghia di distribuzione
timing_belt_kit|timing|kit|Kit de distribuição|Timing belt kit|Kit de distribución|Kit de distribution|Zahnriemensatz|Kit distribuzione
timing_chain|timing|belt_chain|Corrente de distribuição|Timing chain|Cadena de distribución|Chaîne de distribution|Steuerkette|Catena di distribuzione
timing_chain_kit|timing|kit|Kit de corrente de distribuição|Timing chain kit|Kit de cadena de distribución|Kit de chaîne de distribution|Steuerkettensatz|Kit catena distribuzione
timing_tensioner|timing|pulley|Tensor da correia de distribuição|Timing belt tensioner|Tensor de la correa de distribución|Galet tendeur de distribution|Zahnriemenspanner|Tenditore cinghia distribuzione
idler_pulley|timing|pulley|Polia de desvio|Idler pulley|Polea de inversión|Galet enrouleur|Umlenkrolle|Puleggia di rinvio
chain_tensioner|timing|pulley|Tensor da corrente de distribuição|Timing chain tensioner|Tensor de cadena|Tendeur de chaîne|Kettenspanner|Tendicatena
chain_guide|timing|engine_internal|Guia da corrente de distribuição|Timing chain guide|Guía de cadena|Guide de chaîne|Kettenführung|Pattino catena
camshaft_adjuster|timing|valve|Variador da árvore de cames|Camshaft adjuster|Variador del árbol de levas|Déphaseur d'arbre à cames|Nockenwellenversteller|Variatore di fase
auxiliary_belt|engine|belt_chain|Correia de acessórios|Auxiliary drive belt|Correa auxiliar|Courroie d'accessoires|Keilrippenriemen|Cinghia servizi
auxiliary_tensioner|engine|pulley|Tensor da correia de acessórios|Auxiliary belt tensioner|Tensor de la correa auxiliar|Tendeur de courroie d'accessoires|Riemenspanner|Tenditore cinghia servizi
crankshaft_pulley|engine|pulley|Polia da cambota|Crankshaft pulley|Polea del cigüeñal|Poulie de vilebrequin|Riemenscheibe Kurbelwelle|Puleggia albero motore
water_pump|cooling|pump|Bomba de água|Water pump|Bomba de agua|Pompe à eau|Wasserpumpe|Pompa dell'acqua
thermostat|cooling|valve|Termóstato|Thermostat|Termostato|Thermostat|Thermostat|Termostato
thermostat_housing|cooling|cover|Caixa do termóstato|Thermostat housing|Carcasa del termostato|Boîtier de thermostat|Thermostatgehäuse|Alloggiamento termostato
radiator|cooling|heat_exchanger|Radiador|Radiator|Radiador|Radiateur|Kühler|Radiatore
expansion_tank|cooling|reservoir|Vaso de expansão|Expansion tank|Depósito de expansión|Vase d'expansion|Ausgleichsbehälter|Vaso di espansione
expansion_tank_cap|cooling|cover|Tampa do vaso de expansão|Expansion tank cap|Tapón del depósito de expansión|Bouchon de vase d'expansion|Verschlussdeckel Ausgleichsbehälter|Tappo vaso di espansione
radiator_fan|cooling|electric_motor|Ventilador do radiador|Radiator fan|Electroventilador|Motoventilateur|Kühlerlüfter|Elettroventola
fan_clutch|cooling|drivetrain|Embraiagem do ventilador|Fan clutch|Embrague del ventilador|Embrayage de ventilateur|Viscokupplung|Giunto viscoso
radiator_hose|cooling|hose|Tubo do radiador|Radiator hose|Manguito del radiador|Durite de radiateur|Kühlerschlauch|Manicotto radiatore
coolant_temp_sensor|cooling|sensor|Sensor de temperatura do líquido de refrigeração|Coolant temperature sensor|Sensor de temperatura del refrigerante|Sonde de température de liquide de refroidissement|Kühlmitteltemperatursensor|Sensore temperatura liquido refrigerante
fan_switch|cooling|switch|Interruptor térmico do ventilador|Radiator fan switch|Termocontacto del ventilador|Thermocontact de ventilateur|Thermoschalter Kühlerlüfter|Termocontatto ventola
fan_resistor|cooling|relay_fuse|Resistência do ventilador|Radiator fan resistor|Resistencia del ventilador|Résistance de ventilateur|Lüfter-Vorwiderstand|Resistenza elettroventola
fuel_pump|fuel|pump|Bomba de combustível|Fuel pump|Bomba de combustible|Pompe à carburant|Kraftstoffpumpe|Pompa carburante
fuel_tank|fuel|reservoir|Depósito de combustível|Fuel tank|Depósito de combustible|Réservoir de carburant|Kraftstofftank|Serbatoio carburante
fuel_tank_cap|fuel|cover|Tampão do depósito de combustível|Fuel cap|Tapón del depósito|Bouchon de réservoir|Tankdeckel|Tappo serbatoio
fuel_level_sensor|fuel|sensor|Boia do depósito de combustível|Fuel level sensor|Aforador de combustible|Jauge à carburant|Tankgeber|Galleggiante serbatoio
fuel_injector|fuel|injection|Injetor|Fuel injector|Inyector|Injecteur|Einspritzdüse|Iniettore
injection_pump|fuel|injection|Bomba injetora|Injection pump|Bomba inyectora|Pompe d'injection|Einspritzpumpe|Pompa di iniezione
high_pressure_pump|fuel|injection|Bomba de alta pressão|High-pressure fuel pump|Bomba de alta presión|Pompe haute pression|Hochdruckpumpe|Pompa alta pressione
fuel_rail|fuel|injection|Rampa de injeção|Fuel rail|Rampa de inyección|Rampe d'injection|Kraftstoffverteiler|Rail di iniezione
fuel_pressure_regulator|fuel|valve|Regulador de pressão de combustível|Fuel pressure regulator|Regulador de presión de combustible|Régulateur de pression de carburant|Kraftstoffdruckregler|Regolatore pressione carburante
fuel_pressure_sensor|fuel|sensor|Sensor de pressão de combustível|Fuel pressure sensor|Sensor de presión de combustible|Capteur de pression de carburant|Kraftstoffdrucksensor|Sensore pressione carburante
fuel_line|fuel|hose|Tubo de combustível|Fuel line|Tubo de combustible|Conduite de carburant|Kraftstoffleitung|Tubo carburante
carburettor|fuel|injection|Carburador|Carburettor|Carburador|Carburateur|Vergaser|Carburatore
throttle_body|air_intake|valve|Corpo de borboleta|Throttle body|Cuerpo de mariposa|Boîtier papillon|Drosselklappe|Corpo farfallato
idle_control_valve|air_intake|valve|Válvula de ralenti|Idle control valve|Válvula de ralentí|Vanne de ralenti|Leerlaufsteller|Valvola del minimo
intake_manifold|air_intake|engine_internal|Coletor de admissão|Intake manifold|Colector de admisión|Collecteur d'admission|Ansaugkrümmer|Collettore di aspirazione
intake_manifold_gasket|air_intake|seal|Junta do coletor de admissão|Intake manifold gasket|Junta del colector de admisión|Joint de collecteur d'admission|Ansaugkrümmerdichtung|Guarnizione collettore aspirazione
turbocharger|air_intake|charger|Turbocompressor|Turbocharger|Turbocompresor|Turbocompresseur|Turbolader|Turbocompressore
turbo_hose|air_intake|hose|Tubo do turbo|Turbo hose|Manguito del turbo|Durite de turbo|Ladeluftschlauch|Manicotto turbo
intercooler|air_intake|heat_exchanger|Intercooler|Intercooler|Intercooler|Échangeur d'air|Ladeluftkühler|Intercooler
boost_pressure_sensor|air_intake|sensor|Sensor de pressão do turbo|Boost pressure sensor|Sensor de presión de sobrealimentación|Capteur de pression de suralimentation|Ladedrucksensor|Sensore pressione di sovralimentazione
maf_sensor|air_intake|sensor|Medidor de massa de ar|Mass air flow sensor|Caudalímetro|Débitmètre d'air|Luftmassenmesser|Debimetro
map_sensor|air_intake|sensor|Sensor de pressão do coletor|Manifold pressure sensor|Sensor de presión del colector|Capteur de pression de collecteur|Saugrohrdrucksensor|Sensore pressione collettore
egr_valve|exhaust|valve|Válvula EGR|EGR valve|Válvula EGR|Vanne EGR|AGR-Ventil|Valvola EGR
egr_cooler|exhaust|heat_exchanger|Radiador EGR|EGR cooler|Enfriador EGR|Refroidisseur EGR|AGR-Kühler|Radiatore EGR
exhaust_manifold|exhaust|exhaust_element|Coletor de escape|Exhaust manifold|Colector de escape|Collecteur d'échappement|Abgaskrümmer|Collettore di scarico
exhaust_manifold_gasket|exhaust|seal|Junta do coletor de escape|Exhaust manifold gasket|Junta del colector de escape|Joint de collecteur d'échappement|Abgaskrümmerdichtung|Guarnizione collettore di scarico
catalytic_converter|exhaust|exhaust_element|Catalisador|Catalytic converter|Catalizador|Catalyseur|Katalysator|Catalizzatore
particulate_filter|exhaust|filter|Filtro de partículas|Diesel particulate filter|Filtro de partículas|Filtre à particules|Dieselpartikelfilter|Filtro antiparticolato
front_pipe|exhaust|exhaust_element|Tubo de escape dianteiro|Exhaust front pipe|Tubo de escape delantero|Tube avant d'échappement|Hosenrohr|Tubo di scarico anteriore
middle_silencer|exhaust|exhaust_element|Silenciador intermédio|Middle silencer|Silenciador intermedio|Silencieux intermédiaire|Mittelschalldämpfer|Silenziatore centrale
rear_silencer|exhaust|exhaust_element|Silenciador traseiro|Rear silencer|Silenciador trasero|Silencieux arrière|Endschalldämpfer|Silenziatore posteriore
exhaust_mounting|exhaust|mounting|Apoio de borracha do escape|Exhaust rubber mounting|Goma de sujeción del escape|Silentbloc d'échappement|Auspuffgummi|Gommino supporto scarico
lambda_sensor|exhaust|sensor|Sonda lambda|Lambda sensor|Sonda lambda|Sonde lambda|Lambdasonde|Sonda lambda
egt_sensor|exhaust|sensor|Sensor de temperatura dos gases de escape|Exhaust gas temperature sensor|Sensor de temperatura de gases de escape|Capteur de température des gaz d'échappement|Abgastemperatursensor|Sensore temperatura gas di scarico
dpf_pressure_sensor|exhaust|sensor|Sensor de pressão diferencial|Differential pressure sensor|Sensor de presión diferencial|Capteur de pression différentielle|Differenzdrucksensor|Sensore pressione differenziale
adblue_pump|exhaust|pump|Bomba de AdBlue|AdBlue pump|Bomba de AdBlue|Pompe AdBlue|AdBlue-Pumpe|Pompa AdBlue
oil_filter|filters|filter|Filtro de óleo|Oil filter|Filtro de aceite|Filtre à huile|Ölfilter|Filtro dell'olio
air_filter|filters|filter|Filtro de ar|Air filter|Filtro de aire|Filtre à air|Luftfilter|Filtro dell'aria
fuel_filter|filters|filter|Filtro de combustível|Fuel filter|Filtro de combustible|Filtre à carburant|Kraftstofffilter|Filtro carburante
cabin_filter|filters|filter|Filtro de habitáculo|Cabin air filter|Filtro de habitáculo|Filtre d'habitacle|Innenraumfilter|Filtro abitacolo
transmission_filter|filters|filter|Filtro da caixa automática|Automatic transmission filter|Filtro de la caja automática|Filtre de boîte automatique|Getriebefilter|Filtro cambio automatico
air_filter_housing|filters|cover|Caixa do filtro de ar|Air filter housing|Caja del filtro de aire|Boîtier de filtre à air|Luftfiltergehäuse|Scatola filtro aria
oil_filter_housing|filters|cover|Suporte do filtro de óleo|Oil filter housing|Soporte del filtro de aceite|Support de filtre à huile|Ölfiltergehäuse|Supporto filtro olio
spark_plug|ignition|ignition|Vela de ignição|Spark plug|Bujía de encendido|Bougie d'allumage|Zündkerze|Candela di accensione
glow_plug|ignition|ignition|Vela de incandescência|Glow plug|Bujía de precalentamiento|Bougie de préchauffage|Glühkerze|Candeletta
glow_plug_relay|ignition|relay_fuse|Relé das velas de incandescência|Glow plug relay|Relé de precalentamiento|Relais de préchauffage|Glühzeitrelais|Centralina candelette
ignition_coil|ignition|ignition|Bobina de ignição|Ignition coil|Bobina de encendido|Bobine d'allumage|Zündspule|Bobina di accensione
ignition_leads|ignition|cable|Cabos de velas|Ignition leads|Cables de bujía|Faisceau d'allumage|Zündkabelsatz|Cavi candele
distributor_cap|ignition|cover|Tampa do distribuidor|Distributor cap|Tapa del distribuidor|Tête d'allumeur|Verteilerkappe|Calotta spinterogeno
rotor_arm|ignition|ignition|Rotor do distribuidor|Rotor arm|Rotor del distribuidor|Rotor d'allumeur|Verteilerfinger|Spazzola rotante
crankshaft_sensor|ignition|sensor|Sensor de posição da cambota|Crankshaft position sensor|Sensor de posición del cigüeñal|Capteur de position de vilebrequin|Kurbelwellensensor|Sensore albero motore
camshaft_sensor|ignition|sensor|Sensor de posição da árvore de cames|Camshaft position sensor|Sensor de posición del árbol de levas|Capteur de position d'arbre à cames|Nockenwellensensor|Sensore albero a camme
knock_sensor|ignition|sensor|Sensor de detonação|Knock sensor|Sensor de detonación|Capteur de cliquetis|Klopfsensor|Sensore di battito
alternator|electrical|electric_machine|Alternador|Alternator|Alternador|Alternateur|Lichtmaschine|Alternatore
starter_motor|electrical|electric_machine|Motor de arranque|Starter motor|Motor de arranque|Démarreur|Anlasser|Motorino di avviamento
battery|electrical|power_supply|Bateria|Battery|Batería|Batterie|Batterie|Batteria
voltage_regulator|electrical|electronic_module|Regulador de tensão|Voltage regulator|Regulador de tensión|Régulateur de tension|Spannungsregler|Regolatore di tensione
engine_ecu|electrical|electronic_module|Centralina do motor|Engine control unit|Centralita del motor|Calculateur moteur|Motorsteuergerät|Centralina motore
abs_module|brakes|electronic_module|Bloco hidráulico ABS|ABS control unit|Grupo hidráulico ABS|Bloc hydraulique ABS|ABS-Hydraulikblock|Centralina ABS
airbag_module|safety|electronic_module|Centralina de airbag|Airbag control unit|Centralita de airbag|Calculateur d'airbag|Airbag-Steuergerät|Centralina airbag
body_control_module|electrical|electronic_module|Módulo de conforto|Body control module|Módulo de confort|Boîtier de servitude intelligent|Komfortsteuergerät|Centralina comfort
fuse_box|electrical|relay_fuse|Caixa de fusíveis|Fuse box|Caja de fusibles|Boîte à fusibles|Sicherungskasten|Scatola fusibili
ignition_switch|electrical|switch|Comutador de ignição|Ignition switch|Conmutador de encendido|Contacteur d'allumage|Zündschloss|Blocchetto di accensione
steering_column_switch|electrical|switch|Comutador de luzes e limpa-vidros|Steering column switch|Mando de luces y limpiaparabrisas|Commodo de phares et essuie-glace|Lenkstockschalter|Devioluci
clock_spring|safety|cable|Fita do airbag|Airbag clock spring|Cinta del airbag|Ressort spiralé d'airbag|Airbag-Wickelfeder|Spirale airbag
window_switch|electrical|switch|Interruptor do elevador de vidro|Window switch|Interruptor de elevalunas|Interrupteur de lève-vitre|Fensterheberschalter|Pulsante alzacristallo
hazard_switch|electrical|switch|Interruptor dos quatro piscas|Hazard warning switch|Interruptor de emergencia|Interrupteur de feux de détresse|Warnblinkschalter|Interruttore luci di emergenza
brake_light_switch|electrical|switch|Interruptor das luzes de travão|Brake light switch|Interruptor de luz de freno|Contacteur de feux stop|Bremslichtschalter|Interruttore luci stop
reverse_light_switch|electrical|switch|Interruptor da luz de marcha-atrás|Reverse light switch|Interruptor de luz de marcha atrás|Contacteur de feux de recul|Rückfahrlichtschalter|Interruttore luci retromarcia
oil_pressure_switch|electrical|sensor|Manocontacto de pressão do óleo|Oil pressure switch|Manocontacto de presión de aceite|Manocontact de pression d'huile|Öldruckschalter|Bulbo pressione olio
horn|electrical|audio|Buzina|Horn|Claxon|Avertisseur sonore|Hupe|Clacson
wiring_harness|electrical|cable|Cablagem|Wiring harness|Mazo de cables|Faisceau électrique|Kabelbaum|Cablaggio
central_locking_motor|body|electric_motor|Motor do fecho centralizado|Central locking actuator|Motor del cierre centralizado|Moteur de verrouillage centralisé|Zentralverriegelungsmotor|Attuatore chiusura centralizzata
instrument_cluster|interior|instrument|Quadrante de instrumentos|Instrument cluster|Cuadro de instrumentos|Combiné d'instruments|Kombiinstrument|Quadro strumenti
radio|interior|audio|Auto-rádio|Car radio|Autorradio|Autoradio|Autoradio|Autoradio
navigation_unit|interior|instrument|Sistema de navegação|Navigation system|Navegador|Système de navigation|Navigationssystem|Navigatore
display_screen|interior|instrument|Ecrã multimédia|Infotainment display|Pantalla multimedia|Écran multimédia|Infotainment-Display|Display multimediale
steering_wheel|steering|steering_gear|Volante|Steering wheel|Volante|Volant|Lenkrad|Volante
steering_rack|steering|steering_gear|Caixa de direção|Steering rack|Cremallera de dirección|Crémaillère de direction|Lenkgetriebe|Scatola sterzo
power_steering_pump|steering|pump|Bomba da direção assistida|Power steering pump|Bomba de dirección asistida|Pompe de direction assistée|Servopumpe|Pompa servosterzo
steering_column|steering|steering_gear|Coluna de direção|Steering column|Columna de dirección|Colonne de direction|Lenksäule|Piantone sterzo
electric_power_steering|steering|electric_motor|Motor da direção assistida elétrica|Electric power steering motor|Motor de dirección asistida eléctrica|Moteur de direction assistée électrique|Elektrolenkung Motor|Motore servosterzo elettrico
steering_rack_boot|steering|seal|Fole da caixa de direção|Steering rack boot|Fuelle de la dirección|Soufflet de direction|Lenkmanschette|Cuffia scatola sterzo
steering_angle_sensor|steering|sensor|Sensor de ângulo de direção|Steering angle sensor|Sensor de ángulo de dirección|Capteur d'angle de braquage|Lenkwinkelsensor|Sensore angolo sterzo
power_steering_hose|steering|hose|Tubo da direção assistida|Power steering hose|Tubo de dirección asistida|Flexible de direction assistée|Servolenkungsschlauch|Tubo servosterzo
brake_master_cylinder|brakes|hydraulic|Bomba de travão|Brake master cylinder|Bomba de freno|Maître-cylindre de frein|Hauptbremszylinder|Pompa freno
brake_servo|brakes|hydraulic|Servofreio|Brake servo|Servofreno|Servofrein|Bremskraftverstärker|Servofreno
brake_fluid_reservoir|brakes|reservoir|Depósito do líquido de travões|Brake fluid reservoir|Depósito del líquido de frenos|Réservoir de liquide de frein|Bremsflüssigkeitsbehälter|Serbatoio liquido freni
wheel_cylinder|brakes|hydraulic|Cilindro de roda|Wheel brake cylinder|Bombín de freno|Cylindre de roue|Radbremszylinder|Cilindretto freno
handbrake_lever|brakes|switch|Alavanca do travão de mão|Handbrake lever|Palanca del freno de mano|Levier de frein à main|Handbremshebel|Leva freno a mano
electric_parking_brake|brakes|electric_motor|Motor do travão de estacionamento elétrico|Electric parking brake motor|Motor del freno de estacionamiento eléctrico|Moteur de frein de stationnement électrique|Stellmotor Feststellbremse|Motore freno di stazionamento elettrico
vacuum_pump|brakes|pump|Bomba de vácuo|Vacuum pump|Bomba de vacío|Pompe à vide|Unterdruckpumpe|Pompa del vuoto
alloy_wheel|wheels|wheel|Jante de liga leve|Alloy wheel|Llanta de aleación|Jante en alliage|Leichtmetallfelge|Cerchio in lega
steel_wheel|wheels|wheel|Jante de aço|Steel wheel|Llanta de acero|Jante en acier|Stahlfelge|Cerchio in acciaio
tyre|wheels|wheel|Pneu|Tyre|Neumático|Pneu|Reifen|Pneumatico
spare_wheel|wheels|wheel|Roda sobressalente|Spare wheel|Rueda de repuesto|Roue de secours|Reserverad|Ruota di scorta
tpms_sensor|wheels|sensor|Sensor de pressão dos pneus|Tyre pressure sensor|Sensor de presión de neumáticos|Capteur de pression des pneus|Reifendrucksensor|Sensore pressione pneumatici
wheel_cover|wheels|cover|Tampão de roda|Wheel trim|Tapacubos|Enjoliveur|Radzierblende|Copricerchio
bonnet|body|body_panel|Capô|Bonnet|Capó|Capot|Motorhaube|Cofano
tailgate|body|body_panel|Porta da bagageira|Tailgate|Portón trasero|Hayon|Heckklappe|Portellone
boot_lid|body|body_panel|Tampa da mala|Boot lid|Tapa del maletero|Couvercle de coffre|Kofferraumdeckel|Cofano posteriore
roof_panel|body|body_panel|Tejadilho|Roof panel|Techo|Pavillon|Dach|Tetto
bonnet_lock|body|lock_hinge|Fechadura do capô|Bonnet lock|Cerradura del capó|Serrure de capot|Motorhaubenschloss|Serratura cofano
bonnet_cable|body|cable|Cabo de abertura do capô|Bonnet release cable|Cable de apertura del capó|Câble d'ouverture de capot|Motorhaubenzug|Cavo apertura cofano
tailgate_strut|body|damping|Amortecedor da porta da bagageira|Tailgate gas strut|Amortiguador del portón|Vérin de hayon|Heckklappendämpfer|Ammortizzatore portellone
bonnet_strut|body|damping|Amortecedor do capô|Bonnet gas strut|Amortiguador del capó|Vérin de capot|Motorhaubendämpfer|Ammortizzatore cofano
radiator_grille|body|trim|Grelha do radiador|Radiator grille|Rejilla del radiador|Calandre|Kühlergrill|Calandra
front_panel|body|body_panel|Frente do veículo|Front panel|Frente|Face avant|Frontmaske|Frontale
fuel_flap|body|cover|Tampa do depósito (portinhola)|Fuel filler flap|Tapa del depósito|Trappe à carburant|Tankklappe|Sportello carburante
number_plate_light|lighting|lamp|Luz da matrícula|Number plate light|Luz de matrícula|Éclaireur de plaque|Kennzeichenleuchte|Luce targa
third_brake_light|lighting|lamp|Terceira luz de travão|Third brake light|Tercera luz de freno|Troisième feu stop|Dritte Bremsleuchte|Terzo stop
interior_light|lighting|lamp|Luz de teto|Interior light|Luz interior|Plafonnier|Innenleuchte|Plafoniera
headlamp_bulb|lighting|bulb|Lâmpada do farol|Headlamp bulb|Lámpara del faro|Ampoule de phare|Scheinwerferlampe|Lampadina faro
xenon_bulb|lighting|bulb|Lâmpada de xénon|Xenon bulb|Lámpara de xenón|Ampoule xénon|Xenonbrenner|Lampada allo xeno
xenon_ballast|lighting|electronic_module|Balastro de xénon|Xenon ballast|Balastro de xenón|Ballast xénon|Xenon-Steuergerät|Centralina xeno
headlamp_levelling_motor|lighting|electric_motor|Motor de regulação do farol|Headlamp levelling motor|Motor de regulación del faro|Moteur de réglage de phare|Leuchtweitenregulierungsmotor|Motorino regolazione fari
windscreen|glazing|glass|Para-brisas|Windscreen|Parabrisas|Pare-brise|Windschutzscheibe|Parabrezza
rear_window|glazing|glass|Óculo traseiro|Rear window|Luneta trasera|Lunette arrière|Heckscheibe|Lunotto
interior_mirror|glazing|mirror|Espelho retrovisor interior|Interior mirror|Retrovisor interior|Rétroviseur intérieur|Innenspiegel|Specchietto retrovisore interno
sunroof|glazing|glass|Teto de abrir|Sunroof|Techo solar|Toit ouvrant|Schiebedach|Tetto apribile
washer_pump|wipers|pump|Bomba do lava-vidros|Washer pump|Bomba del limpiaparabrisas|Pompe de lave-glace|Waschwasserpumpe|Pompa lavavetri
washer_tank|wipers|reservoir|Depósito do lava-vidros|Washer fluid tank|Depósito del limpiaparabrisas|Réservoir de lave-glace|Waschwasserbehälter|Serbatoio lavavetri
washer_jet|wipers|wiper|Esguicho do lava-vidros|Washer jet|Surtidor del limpiaparabrisas|Gicleur de lave-glace|Waschdüse|Spruzzatore lavavetri
wiper_linkage|wipers|linkage|Mecanismo do limpa-vidros|Wiper linkage|Varillaje del limpiaparabrisas|Tringlerie d'essuie-glace|Wischergestänge|Tiranteria tergicristallo
wiper_arm|wipers|wiper|Braço do limpa-vidros|Wiper arm|Brazo del limpiaparabrisas|Bras d'essuie-glace|Wischarm|Braccio tergicristallo
rain_sensor|wipers|sensor|Sensor de chuva|Rain sensor|Sensor de lluvia|Capteur de pluie|Regensensor|Sensore pioggia
heater_core|climate|heat_exchanger|Radiador de aquecimento|Heater core|Radiador de calefacción|Radiateur de chauffage|Wärmetauscher Heizung|Radiatore riscaldamento
blower_motor|climate|electric_motor|Motor da sofagem|Blower motor|Motor del ventilador de calefacción|Pulseur d'air|Innenraumgebläse|Ventola abitacolo
blower_resistor|climate|relay_fuse|Resistência da sofagem|Blower motor resistor|Resistencia del ventilador de habitáculo|Résistance de pulseur|Gebläsevorwiderstand|Resistenza ventola abitacolo
ac_compressor|climate|pump|Compressor do ar condicionado|Air conditioning compressor|Compresor del aire acondicionado|Compresseur de climatisation|Klimakompressor|Compressore aria condizionata
ac_condenser|climate|heat_exchanger|Condensador do ar condicionado|Air conditioning condenser|Condensador del aire acondicionado|Condenseur de climatisation|Klimakondensator|Condensatore aria condizionata
ac_evaporator|climate|heat_exchanger|Evaporador do ar condicionado|Air conditioning evaporator|Evaporador del aire acondicionado|Évaporateur de climatisation|Verdampfer|Evaporatore
ac_drier|climate|filter|Filtro desidratante do ar condicionado|Air conditioning receiver drier|Filtro deshidratador|Bouteille déshydratante|Klimatrockner|Filtro disidratatore
expansion_valve|climate|valve|Válvula de expansão do ar condicionado|Air conditioning expansion valve|Válvula de expansión|Détendeur de climatisation|Expansionsventil|Valvola di espansione
climate_control_panel|climate|switch|Comando da climatização|Climate control panel|Mando de climatización|Commande de climatisation|Klimabedienteil|Comando climatizzatore
ac_pressure_sensor|climate|sensor|Sensor de pressão do ar condicionado|Air conditioning pressure sensor|Sensor de presión del aire acondicionado|Capteur de pression de climatisation|Klimadrucksensor|Sensore pressione climatizzatore
driver_airbag|safety|safety|Airbag do condutor|Driver airbag|Airbag del conductor|Airbag conducteur|Fahrerairbag|Airbag conducente
passenger_airbag|safety|safety|Airbag do passageiro|Passenger airbag|Airbag del acompañante|Airbag passager|Beifahrerairbag|Airbag passeggero
curtain_airbag|safety|safety|Airbag de cortina|Curtain airbag|Airbag de cortina|Airbag rideau|Kopfairbag|Airbag a tendina
seat_belt_pretensioner|safety|safety|Pré-tensor do cinto de segurança|Seat belt pretensioner|Pretensor del cinturón|Prétensionneur de ceinture|Gurtstraffer|Pretensionatore cintura
dashboard|interior|trim|Tablier|Dashboard|Salpicadero|Planche de bord|Armaturenbrett|Cruscotto
glovebox|interior|cover|Porta-luvas|Glovebox|Guantera|Boîte à gants|Handschuhfach|Cassetto portaoggetti
centre_console|interior|trim|Consola central|Centre console|Consola central|Console centrale|Mittelkonsole|Console centrale
sun_visor|interior|trim|Pala de sol|Sun visor|Parasol|Pare-soleil|Sonnenblende|Aletta parasole
parcel_shelf|interior|trim|Chapeleira|Parcel shelf|Bandeja trasera|Plage arrière|Hutablage|Cappelliera
headliner|interior|trim|Forro do tejadilho|Headliner|Revestimiento del techo|Ciel de toit|Dachhimmel|Cielo abitacolo
floor_mats|interior|trim|Tapetes|Floor mats|Alfombrillas|Tapis de sol|Fußmatten|Tappetini
pedal_box|interior|linkage|Pedaleira|Pedal box|Pedalera|Pédalier|Pedalerie|Pedaliera
accelerator_pedal|interior|sensor|Pedal do acelerador|Accelerator pedal|Pedal del acelerador|Pédale d'accélérateur|Gaspedal|Pedale acceleratore
cruise_control_switch|interior|switch|Comando do cruise control|Cruise control switch|Mando del control de crucero|Commande de régulateur de vitesse|Tempomatschalter|Comando cruise control
key_fob|electrical|electronic_module|Comando da chave|Key fob|Mando de la llave|Télécommande de clé|Funkschlüssel|Telecomando chiave
immobiliser|electrical|electronic_module|Imobilizador|Immobiliser|Inmovilizador|Antidémarrage|Wegfahrsperre|Immobilizzatore
tow_bar|body|mounting|Engate de reboque|Tow bar|Enganche de remolque|Attelage|Anhängerkupplung|Gancio di traino
roof_rails|body|mounting|Barras de tejadilho|Roof rails|Barras de techo|Barres de toit|Dachreling|Barre portatutto
spoiler|body|trim|Aileron|Spoiler|Alerón|Becquet|Spoiler|Spoiler
engine_cover|engine|cover|Cobertura do motor|Engine cover|Tapa del motor|Cache moteur|Motorabdeckung|Copertura motore
undertray|engine|cover|Proteção do cárter|Engine undertray|Cubrecárter|Cache sous moteur|Unterfahrschutz|Paracoppa
engine_block|engine|engine_internal|Bloco do motor|Engine block|Bloque motor|Bloc moteur|Motorblock|Blocco motore
complete_engine|engine|engine_internal|Motor completo|Complete engine|Motor completo|Moteur complet|Komplettmotor|Motore completo
gasket_set|engine|kit|Jogo de juntas do motor|Engine gasket set|Juego de juntas del motor|Pochette de joints moteur|Motordichtungssatz|Kit guarnizioni motore
`;
