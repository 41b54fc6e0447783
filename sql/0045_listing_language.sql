-- The language a listing is written in: one of the six the index analyses text in, told as the
-- item is written (src/search/listing-language.ts), or null when it could not be told. The index
-- analyses an item in its language only (mapping 9: text_lang.*) instead of in all six; null keeps
-- all six. Added without a default: no table rewrite, the rows written before read null.
ALTER TABLE stock_items ADD COLUMN text_language text
  CHECK (text_language IN ('pt', 'en', 'es', 'fr', 'de', 'it'));
