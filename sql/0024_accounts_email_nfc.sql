-- E-mails are now compared in Unicode NFC (normalizeEmail in src/accounts/accounts.ts): an address
-- registered earlier with a decomposed accent (e + U+0301) is rewritten in its NFC form, or its
-- owner could no longer log in. One whose NFC form another account already holds is left as it is:
-- two accounts that look identical are for support to settle, not for a migration to merge.
UPDATE accounts a
   SET email = normalize(a.email, NFC)
 WHERE a.email IS NOT NFC NORMALIZED
   AND NOT EXISTS (
     SELECT 1 FROM accounts b WHERE b.id <> a.id AND lower(b.email) = lower(normalize(a.email, NFC))
   );
