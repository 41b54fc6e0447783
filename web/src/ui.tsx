import type { ComponentChildren, InputHTMLAttributes } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError } from './api';
import { LOCALES, useI18n, type Lang } from './i18n';

/** What a refused action left: the API's message, beside the field it names when the form has it. */
export interface Refusal {
  field: string | null;
  mensagem: string;
  code: string;
}

export function refusalOf(error: unknown): Refusal {
  if (error instanceof ApiError) return { field: error.field, mensagem: error.mensagem, code: error.code };
  return { field: null, mensagem: String(error), code: 'ERROR' };
}

/** The message for one field, if the refusal names it. */
export const messageFor = (refusal: Refusal | null, name: string) =>
  refusal && refusal.field === name ? refusal.mensagem : null;

/** The refusal's message when none of the form's fields is the one it names. */
export function FormError({ refusal, fields }: { refusal: Refusal | null; fields: string[] }) {
  if (!refusal || (refusal.field && fields.includes(refusal.field))) return null;
  return (
    <p class="error" role="alert" data-code={refusal.code}>
      {refusal.mensagem}
    </p>
  );
}

/** The input attributes the forms use. */
interface InputProps {
  id?: string;
  type?: 'text' | 'email' | 'password' | 'number' | 'date';
  autocomplete?: string;
  required?: boolean;
  min?: number;
  max?: number;
  step?: string;
  inputMode?: 'numeric' | 'decimal';
  list?: string;
  disabled?: boolean;
}

export function Field({
  name,
  label,
  value,
  onValue,
  refusal,
  hint,
  id: givenId,
  ...input
}: InputProps & {
  name: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
  refusal?: Refusal | null;
  hint?: string;
}) {
  const id = givenId ?? `f-${name}`;
  const error = messageFor(refusal ?? null, name);
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        name={name}
        value={value}
        onInput={(event) => onValue(event.currentTarget.value)}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={described || undefined}
        // preact 11 types each input type's attributes apart; these few are valid on the types used
        {...(input as InputHTMLAttributes<HTMLInputElement>)}
      />
      {hint && (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      )}
      {error && (
        <p id={`${id}-error`} class="error" role="alert" data-field={name}>
          {error}
        </p>
      )}
    </div>
  );
}

export function SelectField({
  name,
  label,
  value,
  onValue,
  refusal,
  wide,
  hint,
  id: givenId,
  children,
}: {
  name: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
  refusal?: Refusal | null;
  /** a row of its own in a grid form, the select as wide as its longest choice */
  wide?: boolean;
  hint?: string;
  /** when the page has two selects of one name (two forms of a seller) */
  id?: string;
  children: ComponentChildren;
}) {
  const id = givenId ?? `f-${name}`;
  const error = messageFor(refusal ?? null, name);
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class={wide ? 'field wide' : 'field'}>
      <label for={id}>{label}</label>
      <select
        id={id}
        name={name}
        value={value}
        onChange={(event) => onValue(event.currentTarget.value)}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={described || undefined}
      >
        {children}
      </select>
      {hint && (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      )}
      {error && (
        <p id={`${id}-error`} class="error" role="alert" data-field={name}>
          {error}
        </p>
      )}
    </div>
  );
}

export function CopyButton({ text, label }: { text: string; label?: string }) {
  const { t } = useI18n();
  const [done, setDone] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(text).catch(() => undefined);
    setDone(true);
    setTimeout(() => setDone(false), 1500);
  };
  return (
    <button type="button" class="secondary" onClick={copy}>
      {done ? t('copied') : (label ?? t('copy'))}
    </button>
  );
}

/** An optional whole number typed in a field: '' is null. */
export const optionalInt = (text: string): number | null => (text.trim() === '' ? null : Number(text));

export const formatDate = (iso: string | null, lang: Lang) =>
  iso ? new Date(iso).toLocaleString(LOCALES[lang]) : '—';

/**
 * An amount as the page's language writes money ("19,00 €" in Portuguese, "€19.00" in English):
 * every page uses it, so a price reads the same on the credits page, in the search results and at
 * the checkout (which writes Portuguese the same way).
 */
export const formatMoney = (amount: number | string | null | undefined, lang: Lang, currency = 'EUR') =>
  amount === null || amount === undefined
    ? '—'
    : Number(amount).toLocaleString(LOCALES[lang], { style: 'currency', currency });

/** A size in bytes as the page's language writes it ("820 bytes", "1,2 MB" in Portuguese). */
export function formatBytes(bytes: number, lang: Lang): string {
  const [unit, size] =
    bytes >= 1024 * 1024
      ? (['megabyte', bytes / 1024 / 1024] as const)
      : bytes >= 1024
        ? (['kilobyte', bytes / 1024] as const)
        : (['byte', bytes] as const);
  // bytes in full ("131 bytes"): the short form of the unit would be "131 byte"
  const unitDisplay = unit === 'byte' ? 'long' : 'short';
  return size.toLocaleString(LOCALES[lang], { style: 'unit', unit, unitDisplay, maximumFractionDigits: 1 });
}

/**
 * A form's submission: busy while it runs, the API's refusal kept for the fields to show (and
 * cleared on success); what was typed stays in the form's own state either way.
 */
export function useSubmit(action: () => Promise<void>) {
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event?: Event) => {
    event?.preventDefault();
    setBusy(true);
    try {
      await action();
      setRefusal(null);
    } catch (error) {
      setRefusal(refusalOf(error));
    } finally {
      setBusy(false);
    }
  };
  return { refusal, busy, submit };
}
