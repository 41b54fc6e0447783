-- A feed's apply writes a million associated references with stock.items_written_with_references
-- on (sql/0034): the row trigger then has nothing to do, yet each row still paid a PL/pgSQL call to
-- learn it. A WHEN condition is evaluated without one (the function's own check stays, now
-- redundant but harmless).
DROP TRIGGER stock_item_references_outbox ON stock_item_references;
CREATE TRIGGER stock_item_references_outbox AFTER INSERT OR UPDATE OR DELETE ON stock_item_references
  FOR EACH ROW
  WHEN (coalesce(current_setting('stock.items_written_with_references', true), '') <> 'on')
  EXECUTE FUNCTION stock_item_references_outbox();
