-- Who holds a feed: every claim counts an attempt, and a worker writes a feed's progress, its
-- staged lines, its status and its outcome only while the attempt is still its own. A worker that
-- stalled past the heartbeat and lost its feed to another cannot finish it, fail it or empty its
-- staged lines behind the new holder's back.
ALTER TABLE stock_feeds ADD COLUMN attempt integer NOT NULL DEFAULT 0;
