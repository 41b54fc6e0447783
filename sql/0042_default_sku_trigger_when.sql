-- An item written without a SKU takes its id as one (sql/0033). Every writer but the oldest
-- fixtures names the SKU, yet the trigger ran a PL/pgSQL call for each row to find it had nothing
-- to do: a feed's million new items paid a million calls. A WHEN condition skips them.
DROP TRIGGER stock_items_default_sku ON stock_items;
CREATE TRIGGER stock_items_default_sku BEFORE INSERT ON stock_items
  FOR EACH ROW WHEN (NEW.sku IS NULL) EXECUTE FUNCTION stock_items_default_sku();
