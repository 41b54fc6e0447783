-- A feed is applied batch by batch while it is read (src/stock/feed-apply.ts): each batch finds
-- its staged lines by their line numbers.
CREATE INDEX stock_feed_lines_line_idx ON stock_feed_lines (feed_id, line);
