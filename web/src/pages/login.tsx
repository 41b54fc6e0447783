import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, type Credential } from '../api';
import type { LoginAnswer } from '../api-types';
import { useI18n } from '../i18n';
import { session } from '../session';
import { Field, FormError, useSubmit, type Refusal } from '../ui';

const NONE: Credential = { kind: 'none' };

/** Only a dashboard path may be returned to after the login. */
function nextPath(query: Record<string, string>): string {
  const next = query.next ?? '';
  return next.startsWith('/dashboard') ? next : '/dashboard';
}

async function logIn(email: string, password: string) {
  const { data } = await api<LoginAnswer>('POST', '/auth/login', {
    body: { email, password },
    credential: NONE,
  });
  session.start(data.access_token, data.expires_at);
}

/** The e-mail and password fields of both forms. */
function EmailPassword(props: {
  email: string;
  setEmail: (value: string) => void;
  password: string;
  setPassword: (value: string) => void;
  refusal: Refusal | null;
  autocomplete: 'current-password' | 'new-password';
  hint?: string;
}) {
  const { t } = useI18n();
  return (
    <>
      <Field
        name="email"
        label={t('email')}
        type="email"
        autocomplete="username"
        required
        value={props.email}
        onValue={props.setEmail}
        refusal={props.refusal}
      />
      <Field
        name="password"
        label={t('password')}
        type="password"
        autocomplete={props.autocomplete}
        required
        hint={props.hint}
        value={props.password}
        onValue={props.setPassword}
        refusal={props.refusal}
      />
    </>
  );
}

export function Login() {
  const { t } = useI18n();
  const { query, route } = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { refusal, busy, submit } = useSubmit(async () => {
    await logIn(email, password);
    route(nextPath(query));
  });
  return (
    <section class="narrow">
      <h1>{t('login')}</h1>
      {query.expired && <p class="notice">{t('sessionExpired')}</p>}
      <form onSubmit={submit}>
        <EmailPassword
          {...{ email, setEmail, password, setPassword, refusal }}
          autocomplete="current-password"
        />
        <FormError refusal={refusal} fields={['email', 'password']} />
        <button type="submit" disabled={busy}>
          {t('login')}
        </button>
      </form>
      <p>
        {t('noAccount')}{' '}
        <a href={`/dashboard/register${query.next ? `?next=${encodeURIComponent(query.next)}` : ''}`}>
          {t('register')}
        </a>
      </p>
    </section>
  );
}

export function Register() {
  const { t } = useI18n();
  const { query, route } = useLocation();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { refusal, busy, submit } = useSubmit(async () => {
    await api('POST', '/auth/register', {
      body: { name: name || undefined, email, password },
      credential: NONE,
    });
    await logIn(email, password);
    route(nextPath(query));
  });
  return (
    <section class="narrow">
      <h1>{t('register')}</h1>
      <form onSubmit={submit}>
        <Field
          name="name"
          label={t('name')}
          autocomplete="name"
          value={name}
          onValue={setName}
          refusal={refusal}
        />
        <EmailPassword
          {...{ email, setEmail, password, setPassword, refusal }}
          autocomplete="new-password"
          hint={t('passwordHint')}
        />
        <FormError refusal={refusal} fields={['name', 'email', 'password']} />
        <button type="submit" disabled={busy}>
          {t('register')}
        </button>
      </form>
      <p>
        {t('haveAccount')} <a href="/dashboard/login">{t('login')}</a>
      </p>
    </section>
  );
}
