import type { OemFormat } from './reference-patterns.js';

/** Vehicle makes and model lines common in European stock, weighted by how often they are offered. */
export interface DemoModel {
  name: string;
  /** VAG platform prefixes for OEM numbers; empty for other makes */
  platforms: readonly string[];
}

export interface DemoMake {
  name: string;
  weight: number;
  format: OemFormat;
  models: readonly DemoModel[];
  /** engine variants shared by the make's models */
  variants: readonly string[];
}

const m = (name: string, ...platforms: string[]): DemoModel => ({ name, platforms });

const VAG_DIESEL_PETROL = [
  '1.6 TDI 105cv',
  '1.6 TDI 115cv',
  '2.0 TDI 150cv',
  '2.0 TDI 190cv',
  '1.9 TDI 105cv',
  '1.0 TSI 95cv',
  '1.0 TSI 110cv',
  '1.4 TSI 125cv',
  '1.5 TSI 150cv',
  '2.0 TFSI 200cv',
];

export const MAKES: readonly DemoMake[] = [
  {
    name: 'Volkswagen',
    weight: 14,
    format: 'vag',
    models: [
      m('Golf VI', '1K0', '5K0'),
      m('Golf VII', '5Q0', '5G0'),
      m('Golf VIII', '5H0'),
      m('Polo V', '6R0', '6C0'),
      m('Passat B7', '3AA', '3C0'),
      m('Passat B8', '3G0'),
      m('Tiguan', '5N0', '5NA'),
      m('Touran', '1T0', '5TA'),
      m('Caddy III', '2K0', '2K5'),
      m('Transporter T5', '7H0', '7E0'),
    ],
    variants: VAG_DIESEL_PETROL,
  },
  {
    name: 'Audi',
    weight: 6,
    format: 'vag',
    models: [
      m('A3 8P', '8P0', '8P4'),
      m('A3 8V', '8V0', '8V4'),
      m('A4 B8', '8K0', '8K5'),
      m('A4 B9', '8W0'),
      m('A6 C7', '4G0'),
      m('Q3', '8U0'),
      m('Q5', '8R0', '80A'),
    ],
    variants: [
      '2.0 TDI 143cv',
      '2.0 TDI 150cv',
      '3.0 TDI 245cv',
      '1.4 TFSI 150cv',
      '2.0 TFSI 190cv',
      '1.6 TDI 110cv',
    ],
  },
  {
    name: 'Seat',
    weight: 5,
    format: 'vag',
    models: [
      m('Ibiza 6J', '6J0', '6J4'),
      m('Ibiza 6F', '6F0'),
      m('Leon 1P', '1P0'),
      m('Leon 5F', '5F0', '5FA'),
      m('Ateca', '575'),
    ],
    variants: VAG_DIESEL_PETROL,
  },
  {
    name: 'Škoda',
    weight: 4,
    format: 'vag',
    models: [
      m('Octavia II', '1Z0'),
      m('Octavia III', '5E0', '5E3'),
      m('Fabia III', '6V0'),
      m('Superb III', '3V0'),
    ],
    variants: VAG_DIESEL_PETROL,
  },
  {
    name: 'BMW',
    weight: 7,
    format: 'bmw',
    models: [
      m('Série 1 F20'),
      m('Série 3 E90'),
      m('Série 3 F30'),
      m('Série 5 F10'),
      m('Série 5 G30'),
      m('X1 E84'),
      m('X3 F25'),
    ],
    variants: [
      '116d 116cv',
      '118d 143cv',
      '120d 184cv',
      '318d 143cv',
      '320d 184cv',
      '520d 190cv',
      '530d 258cv',
      '320i 184cv',
    ],
  },
  {
    name: 'Mercedes-Benz',
    weight: 7,
    format: 'mercedes',
    models: [
      m('Classe A W176'),
      m('Classe C W204'),
      m('Classe C W205'),
      m('Classe E W212'),
      m('Classe E W213'),
      m('Sprinter 906'),
      m('Vito W639'),
    ],
    variants: [
      'A 180 CDI 109cv',
      'C 220 CDI 170cv',
      'C 200 184cv',
      'E 220 BlueTEC 170cv',
      'E 350 CDI 258cv',
      '313 CDI 129cv',
      '111 CDI 116cv',
    ],
  },
  {
    name: 'Peugeot',
    weight: 8,
    format: 'psa',
    models: [m('206'), m('207'), m('208'), m('308 II'), m('3008'), m('508'), m('Partner II')],
    variants: [
      '1.6 HDi 92cv',
      '1.6 BlueHDi 100cv',
      '1.6 BlueHDi 120cv',
      '2.0 HDi 136cv',
      '1.2 PureTech 82cv',
      '1.2 PureTech 130cv',
      '1.4 HDi 68cv',
    ],
  },
  {
    name: 'Citroën',
    weight: 6,
    format: 'psa',
    models: [m('C3 II'), m('C4 Picasso'), m('C4 II'), m('C5 III'), m('Berlingo II'), m('Jumpy')],
    variants: [
      '1.6 HDi 92cv',
      '1.6 BlueHDi 100cv',
      '1.6 HDi 110cv',
      '2.0 HDi 136cv',
      '1.2 PureTech 82cv',
      '1.4 HDi 68cv',
    ],
  },
  {
    name: 'Renault',
    weight: 10,
    format: 'renault',
    models: [
      m('Clio III'),
      m('Clio IV'),
      m('Mégane III'),
      m('Mégane IV'),
      m('Scénic III'),
      m('Kangoo II'),
      m('Captur'),
      m('Master III'),
    ],
    variants: [
      '1.5 dCi 75cv',
      '1.5 dCi 90cv',
      '1.5 dCi 110cv',
      '1.2 16v 75cv',
      '0.9 TCe 90cv',
      '1.6 dCi 130cv',
      '2.3 dCi 125cv',
    ],
  },
  {
    name: 'Dacia',
    weight: 3,
    format: 'renault',
    models: [m('Sandero II'), m('Logan II'), m('Duster')],
    variants: ['1.5 dCi 90cv', '1.5 dCi 110cv', '0.9 TCe 90cv', '1.2 16v 75cv'],
  },
  {
    name: 'Ford',
    weight: 7,
    format: 'ford',
    models: [
      m('Fiesta VI'),
      m('Fiesta VII'),
      m('Focus II'),
      m('Focus III'),
      m('Mondeo IV'),
      m('Kuga II'),
      m('Transit Connect'),
      m('Transit'),
    ],
    variants: [
      '1.6 TDCi 95cv',
      '1.6 TDCi 115cv',
      '2.0 TDCi 150cv',
      '1.0 EcoBoost 100cv',
      '1.0 EcoBoost 125cv',
      '1.25 82cv',
      '2.2 TDCi 125cv',
    ],
  },
  {
    name: 'Opel',
    weight: 6,
    format: 'opel',
    models: [
      m('Astra H'),
      m('Astra J'),
      m('Astra K'),
      m('Corsa D'),
      m('Corsa E'),
      m('Insignia A'),
      m('Meriva B'),
      m('Vivaro'),
    ],
    variants: [
      '1.3 CDTI 75cv',
      '1.3 CDTI 95cv',
      '1.7 CDTI 110cv',
      '1.6 CDTI 136cv',
      '2.0 CDTI 160cv',
      '1.4 Turbo 140cv',
      '1.2 16v 80cv',
    ],
  },
  {
    name: 'Fiat',
    weight: 4,
    format: 'fiat',
    models: [m('Punto'), m('Grande Punto'), m('500'), m('Panda III'), m('Doblò'), m('Ducato')],
    variants: [
      '1.3 Multijet 75cv',
      '1.3 Multijet 95cv',
      '1.6 Multijet 105cv',
      '1.2 8v 69cv',
      '0.9 TwinAir 85cv',
      '2.3 Multijet 130cv',
    ],
  },
  {
    name: 'Toyota',
    weight: 4,
    format: 'toyota',
    models: [m('Yaris III'), m('Corolla E210'), m('Auris II'), m('RAV4 IV'), m('Hilux')],
    variants: ['1.4 D-4D 90cv', '1.8 Hybrid 122cv', '2.0 D-4D 124cv', '1.33 VVT-i 99cv', '2.4 D-4D 150cv'],
  },
  {
    name: 'Nissan',
    weight: 3,
    format: 'nissan',
    models: [m('Qashqai J10'), m('Qashqai J11'), m('Juke'), m('Micra K12'), m('Navara D40')],
    variants: ['1.5 dCi 106cv', '1.5 dCi 110cv', '1.6 dCi 130cv', '1.2 DIG-T 115cv', '2.5 dCi 190cv'],
  },
  {
    name: 'Honda',
    weight: 2,
    format: 'honda',
    models: [m('Civic IX'), m('Jazz III'), m('CR-V IV')],
    variants: ['1.6 i-DTEC 120cv', '2.2 i-DTEC 150cv', '1.4 i-VTEC 100cv', '1.8 i-VTEC 142cv'],
  },
  {
    name: 'Hyundai',
    weight: 2,
    format: 'hyundai',
    models: [m('i20'), m('i30'), m('Tucson')],
    variants: ['1.1 CRDi 75cv', '1.4 CRDi 90cv', '1.6 CRDi 110cv', '1.2 84cv', '1.6 GDi 135cv'],
  },
  {
    name: 'Kia',
    weight: 2,
    format: 'hyundai',
    models: [m('Ceed'), m('Sportage'), m('Picanto')],
    variants: ['1.4 CRDi 90cv', '1.6 CRDi 110cv', '1.6 CRDi 136cv', '1.0 67cv'],
  },
];
