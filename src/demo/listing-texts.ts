import type { Condition } from '../db/schema.js';
import type { DemoLang } from './part-kinds.js';
import type { Random } from '../seeded-random.js';

/** Words and sentences of a seller's listing, per language. */
interface ListingWords {
  left: string;
  right: string;
  condition: Record<Condition, string>;
  reference: (ref: string) => string;
  fits: (vehicle: string) => string;
  mileage: (km: string) => string;
  warranty: (months: number) => string;
  equivalent: (brand: string) => string;
  extras: readonly string[];
}

const WORDS: Record<DemoLang, ListingWords> = {
  pt: {
    left: 'lado esquerdo',
    right: 'lado direito',
    condition: {
      novo: 'Peça nova, na embalagem original',
      usado_bom: 'Usado em bom estado, testado',
      usado_aceitavel: 'Usado em estado aceitável, com marcas de uso',
      recondicionado: 'Recondicionado por profissionais',
      para_pecas: 'Para peças ou reparação, não testado',
    },
    reference: (ref) => `Referência ${ref}`,
    fits: (vehicle) => `Compatível com ${vehicle}`,
    mileage: (km) => `Retirado de viatura com ${km} km`,
    warranty: (months) => `Garantia de ${months} meses`,
    equivalent: (brand) => `Marca ${brand}, equivalente ao original`,
    extras: [
      'Envio em 24/48h para todo o país',
      'Aceitamos devoluções em 14 dias',
      'Fatura com IVA',
      'Levantamento no local possível',
      'Verifique a referência antes de comprar',
    ],
  },
  es: {
    left: 'lado izquierdo',
    right: 'lado derecho',
    condition: {
      novo: 'Pieza nueva, en su embalaje original',
      usado_bom: 'Usado en buen estado, probado',
      usado_aceitavel: 'Usado en estado aceptable, con marcas de uso',
      recondicionado: 'Reacondicionado por profesionales',
      para_pecas: 'Para piezas o reparación, sin probar',
    },
    reference: (ref) => `Referencia ${ref}`,
    fits: (vehicle) => `Compatible con ${vehicle}`,
    mileage: (km) => `Desmontado de un vehículo con ${km} km`,
    warranty: (months) => `Garantía de ${months} meses`,
    equivalent: (brand) => `Marca ${brand}, equivalente al original`,
    extras: [
      'Envío en 24/48h',
      'Devoluciones en 14 días',
      'Factura con IVA',
      'Compruebe la referencia antes de comprar',
    ],
  },
  fr: {
    left: 'côté gauche',
    right: 'côté droit',
    condition: {
      novo: "Pièce neuve, dans son emballage d'origine",
      usado_bom: 'Occasion en bon état, testée',
      usado_aceitavel: "Occasion en état correct, traces d'usage",
      recondicionado: 'Reconditionnée par des professionnels',
      para_pecas: 'Pour pièces ou réparation, non testée',
    },
    reference: (ref) => `Référence ${ref}`,
    fits: (vehicle) => `Compatible avec ${vehicle}`,
    mileage: (km) => `Démontée d'un véhicule de ${km} km`,
    warranty: (months) => `Garantie ${months} mois`,
    equivalent: (brand) => `Marque ${brand}, équivalent à l'origine`,
    extras: [
      'Expédition sous 48h',
      'Retour accepté sous 14 jours',
      'Facture avec TVA',
      'Vérifiez la référence avant achat',
    ],
  },
  de: {
    left: 'links',
    right: 'rechts',
    condition: {
      novo: 'Neuteil in Originalverpackung',
      usado_bom: 'Gebraucht in gutem Zustand, geprüft',
      usado_aceitavel: 'Gebraucht, akzeptabler Zustand mit Gebrauchsspuren',
      recondicionado: 'Fachgerecht aufbereitet',
      para_pecas: 'Für Teile oder Reparatur, ungeprüft',
    },
    reference: (ref) => `Teilenummer ${ref}`,
    fits: (vehicle) => `Passend für ${vehicle}`,
    mileage: (km) => `Ausgebaut aus Fahrzeug mit ${km} km`,
    warranty: (months) => `${months} Monate Gewährleistung`,
    equivalent: (brand) => `Marke ${brand}, gleichwertig zum Original`,
    extras: [
      'Versand innerhalb von 48 Stunden',
      '14 Tage Rückgaberecht',
      'Rechnung mit MwSt.',
      'Bitte Teilenummer vor dem Kauf prüfen',
    ],
  },
  it: {
    left: 'lato sinistro',
    right: 'lato destro',
    condition: {
      novo: 'Ricambio nuovo, nella confezione originale',
      usado_bom: 'Usato in buono stato, testato',
      usado_aceitavel: "Usato in stato accettabile, con segni d'uso",
      recondicionado: 'Ricondizionato da professionisti',
      para_pecas: 'Per ricambi o riparazione, non testato',
    },
    reference: (ref) => `Codice ${ref}`,
    fits: (vehicle) => `Compatibile con ${vehicle}`,
    mileage: (km) => `Smontato da veicolo con ${km} km`,
    warranty: (months) => `Garanzia di ${months} mesi`,
    equivalent: (brand) => `Marca ${brand}, equivalente all'originale`,
    extras: [
      'Spedizione in 48 ore',
      'Reso entro 14 giorni',
      'Fattura con IVA',
      "Verificare il codice prima dell'acquisto",
    ],
  },
  en: {
    left: 'left side',
    right: 'right side',
    condition: {
      novo: 'New part in original packaging',
      usado_bom: 'Used, good condition, tested',
      usado_aceitavel: 'Used, acceptable condition with signs of wear',
      recondicionado: 'Professionally reconditioned',
      para_pecas: 'For parts or repair, untested',
    },
    reference: (ref) => `Part number ${ref}`,
    fits: (vehicle) => `Fits ${vehicle}`,
    mileage: (km) => `Removed from a vehicle with ${km} km`,
    warranty: (months) => `${months}-month warranty`,
    equivalent: (brand) => `${brand} brand, equivalent to the original`,
    extras: [
      'Ships within 48 hours',
      '14-day returns',
      'VAT invoice provided',
      'Please check the part number before buying',
    ],
  },
};

export function sideWord(lang: DemoLang, side: 'left' | 'right'): string {
  return WORDS[lang][side];
}

export interface ListingFacts {
  lang: DemoLang;
  condition: Condition;
  reference: string;
  vehicle: string;
  brand: string | null;
}

/** A seller's description: condition, reference, fitment, and a sentence or two of terms. */
export function listingDescription(facts: ListingFacts, random: Random): string {
  const w = WORDS[facts.lang];
  const parts = [w.condition[facts.condition], w.reference(facts.reference), w.fits(facts.vehicle)];
  if (facts.brand) parts.push(w.equivalent(facts.brand));
  if (facts.condition.startsWith('usado') || facts.condition === 'para_pecas') {
    parts.push(w.mileage(`${random.int(20, 280)}.000`));
  }
  if (facts.condition !== 'para_pecas')
    parts.push(w.warranty(facts.condition === 'novo' ? 24 : random.pick([3, 6, 12])));
  if (random.chance(0.6)) parts.push(random.pick(w.extras));
  return parts.join('. ') + '.';
}
