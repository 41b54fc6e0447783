-- Catalogs: reference lists, parts and the vehicle catalog. Names carry a case- and accent-folded
-- copy (generated) so `q` filters are accent-insensitive. Stock items keep part_id without a
-- foreign key: operators may load stock before (or without) the catalog.

-- Coded lists (types, groups, locations, sides, conditions, quality, packaging, labelling,
-- fuels, languages): one row per code with its label in each language.
CREATE TABLE catalog_lists (
  kind       text NOT NULL,
  code       text NOT NULL,
  sort_order integer NOT NULL DEFAULT 0,
  names      jsonb NOT NULL CHECK (names ?& array['pt', 'en', 'es', 'fr', 'de', 'it']),
  PRIMARY KEY (kind, code)
);

CREATE TABLE catalog_parts (
  id            integer PRIMARY KEY CHECK (id > 0),
  code          text NOT NULL,
  group_code    text NOT NULL,
  type_code     text NOT NULL,
  location_code text,
  side_code     text,
  names         jsonb NOT NULL CHECK (names ?& array['pt', 'en', 'es', 'fr', 'de', 'it'])
);

CREATE TABLE vehicle_makes (
  id           integer PRIMARY KEY CHECK (id > 0),
  name         text NOT NULL,
  country_code char(2),
  name_fold    text GENERATED ALWAYS AS (f_fold(name)) STORED
);
CREATE INDEX vehicle_makes_name_idx ON vehicle_makes (name_fold, id);

CREATE TABLE vehicle_models (
  id        integer PRIMARY KEY CHECK (id > 0),
  make_id   integer NOT NULL REFERENCES vehicle_makes (id) ON DELETE CASCADE,
  name      text NOT NULL,
  year_from integer,
  year_to   integer,
  name_fold text GENERATED ALWAYS AS (f_fold(name)) STORED
);
CREATE INDEX vehicle_models_make_idx ON vehicle_models (make_id, name_fold, id);

CREATE TABLE vehicle_variants (
  id              integer PRIMARY KEY CHECK (id > 0),
  model_id        integer NOT NULL REFERENCES vehicle_models (id) ON DELETE CASCADE,
  name            text NOT NULL,
  year_from       integer,
  year_to         integer,
  body_type       text,
  fuel_code       text,
  power_kw        integer,
  power_hp        integer,
  displacement_cc integer,
  engine_codes    text[] NOT NULL DEFAULT '{}',
  name_fold       text GENERATED ALWAYS AS (f_fold(name)) STORED
);
CREATE INDEX vehicle_variants_model_idx ON vehicle_variants (model_id, name_fold, id);

CREATE TABLE vehicle_engines (
  id              integer PRIMARY KEY CHECK (id > 0),
  variant_id      integer NOT NULL REFERENCES vehicle_variants (id) ON DELETE CASCADE,
  code            text NOT NULL,
  fuel_code       text,
  displacement_cc integer,
  power_kw        integer,
  power_hp        integer,
  cylinders       integer
);
CREATE INDEX vehicle_engines_variant_idx ON vehicle_engines (variant_id, id);
