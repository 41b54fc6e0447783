import { codedLabels } from './languages.js';

/** The spec's five stock conditions (the values search accepts), labelled. */
export const CONDITIONS = codedLabels(`
novo|Novo|New|Nuevo|Neuf|Neu|Nuovo
usado_bom|Usado em bom estado|Used, good condition|Usado en buen estado|Occasion en bon état|Gebraucht, guter Zustand|Usato in buone condizioni
usado_aceitavel|Usado em estado aceitável|Used, fair condition|Usado en estado aceptable|Occasion en état correct|Gebraucht, akzeptabler Zustand|Usato in condizioni accettabili
recondicionado|Recondicionado|Remanufactured|Reconstruido|Reconditionné|Aufbereitet|Rigenerato
para_pecas|Para peças|For parts|Para piezas|Pour pièces|Für Ersatzteile|Per ricambi
`);

export const QUALITY_LEVELS = codedLabels(`
oem|Original (OEM)|Original equipment (OEM)|Original (OEM)|Origine (OEM)|Erstausrüstung (OEM)|Originale (OEM)
oes|Qualidade de origem (OES)|Original equipment supplier (OES)|Calidad de origen (OES)|Qualité d'origine (OES)|Erstausrüsterqualität (OES)|Qualità originale (OES)
premium|Aftermarket premium|Premium aftermarket|Recambio premium|Rechange premium|Premium-Nachbau|Ricambio premium
standard|Aftermarket normal|Standard aftermarket|Recambio estándar|Rechange standard|Standard-Nachbau|Ricambio standard
economy|Económica|Economy|Económica|Économique|Preiseinstieg|Economica
remanufactured|Recondicionada de fábrica|Factory remanufactured|Reconstruida en fábrica|Échange standard|Werksüberholt|Rigenerata in fabbrica
`);

export const PACKAGING_TYPES = codedLabels(`
box|Caixa de cartão|Cardboard box|Caja de cartón|Carton|Karton|Scatola di cartone
blister|Blister|Blister pack|Blíster|Blister|Blister|Blister
bag|Saco|Bag|Bolsa|Sachet|Beutel|Sacchetto
pallet|Palete|Pallet|Palé|Palette|Palette|Pallet
crate|Grade de madeira|Wooden crate|Caja de madera|Caisse en bois|Holzkiste|Cassa di legno
wrapped|Envolvido em plástico|Shrink-wrapped|Envuelto en plástico|Filmé|Eingeschweißt|Avvolto nel film
unpacked|Sem embalagem|Unpacked|Sin embalaje|Sans emballage|Unverpackt|Senza imballo
original|Embalagem original do fabricante|Manufacturer's original packaging|Embalaje original del fabricante|Emballage d'origine du fabricant|Originalverpackung des Herstellers|Imballo originale del produttore
`);

export const LABELLING_TYPES = codedLabels(`
oem_label|Etiqueta original do fabricante|Manufacturer's original label|Etiqueta original del fabricante|Étiquette d'origine du fabricant|Original-Herstelleretikett|Etichetta originale del produttore
seller_label|Etiqueta do vendedor|Seller's label|Etiqueta del vendedor|Étiquette du vendeur|Verkäuferetikett|Etichetta del venditore
barcode|Código de barras|Barcode|Código de barras|Code-barres|Barcode|Codice a barre
qr_code|Código QR|QR code|Código QR|Code QR|QR-Code|Codice QR
engraved|Referência gravada na peça|Reference engraved on the part|Referencia grabada en la pieza|Référence gravée sur la pièce|Auf dem Teil eingraviert|Riferimento inciso sul pezzo
unlabelled|Sem etiqueta|Unlabelled|Sin etiqueta|Sans étiquette|Ohne Etikett|Senza etichetta
`);

export const FUELS = codedLabels(`
petrol|Gasolina|Petrol|Gasolina|Essence|Benzin|Benzina
diesel|Gasóleo|Diesel|Diésel|Diesel|Diesel|Gasolio
hybrid|Híbrido|Hybrid|Híbrido|Hybride|Hybrid|Ibrido
plugin_hybrid|Híbrido plug-in|Plug-in hybrid|Híbrido enchufable|Hybride rechargeable|Plug-in-Hybrid|Ibrido plug-in
electric|Elétrico|Electric|Eléctrico|Électrique|Elektro|Elettrico
lpg|GPL|LPG|GLP|GPL|Autogas (LPG)|GPL
cng|Gás natural (GNC)|Natural gas (CNG)|Gas natural (GNC)|Gaz naturel (GNV)|Erdgas (CNG)|Metano (CNG)
hydrogen|Hidrogénio|Hydrogen|Hidrógeno|Hydrogène|Wasserstoff|Idrogeno
`);

/** The six catalog languages, each named in every language (plus its own name). */
export const LANGUAGE_NAMES = codedLabels(`
pt|Português|Portuguese|Portugués|Portugais|Portugiesisch|Portoghese
en|Inglês|English|Inglés|Anglais|Englisch|Inglese
es|Espanhol|Spanish|Español|Espagnol|Spanisch|Spagnolo
fr|Francês|French|Francés|Français|Französisch|Francese
de|Alemão|German|Alemán|Allemand|Deutsch|Tedesco
it|Italiano|Italian|Italiano|Italien|Italienisch|Italiano
`);
