import { Type, type Static } from '@sinclair/typebox';

const email = Type.String({
  minLength: 3,
  maxLength: 254,
  description: 'E-mail address (trimmed, lower-cased).',
});

/** Body of POST /auth/register and /data/auth/register-user: what a new account is made of. */
export const NewAccountSchema = Type.Object(
  {
    email,
    password: Type.String({
      minLength: 10,
      maxLength: 256,
      description: 'At least 10 characters, not a common one.',
    }),
    name: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 100 })),
  },
  { additionalProperties: false, description: 'A new account.' },
);
export type NewAccount = Static<typeof NewAccountSchema>;

/** Body of POST /auth/login. */
export const LoginSchema = Type.Object(
  { email, password: Type.String({ minLength: 1, maxLength: 256 }) },
  { additionalProperties: false, description: 'E-mail and password.' },
);
export type Login = Static<typeof LoginSchema>;
