#!/usr/bin/env python3
"""The validation peers of Scripts/bench.sh.

    bench-validate.py jsonschema-rs PRODUCTS.jsonl
    bench-validate.py jsonschema-rs-schema SCHEMA.json PRODUCTS.jsonl
    bench-validate.py frictionless PRODUCTS.csv

jsonschema-rs: reads the JSON Lines with orjson and checks each record with
jsonschema-rs against a JSON Schema equivalent to Ferry's built-in product
schema (Formats/schemas/product.schema.json: a non-empty name, a price of at
least 0, text for sku and photo), plus sku uniqueness with a set, as
`ferry validate` checks it. frictionless: validates the CSV against the same
rules as a Table Schema (the sku unique). jsonschema-rs-schema: checks each
record against the schema file given (Scripts/bench-schema.py), and prints
how many records were read and how many are invalid. All exit 0 either way.
"""
import sys

SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["name"],
    "properties": {
        "name": {"type": "string", "minLength": 1, "pattern": "\\S"},
        "price": {"type": ["number", "null"], "minimum": 0},
        "photo": {"type": ["string", "null"]},
        "sku": {"type": ["string", "null"], "minLength": 1},
    },
}

TABLE_SCHEMA = {
    "fields": [
        {"name": "name", "type": "string", "constraints": {"required": True, "minLength": 1}},
        {"name": "price", "type": "number", "constraints": {"minimum": 0}},
        {"name": "photo", "type": "string"},
        {"name": "sku", "type": "string", "constraints": {"unique": True}},
        {"name": "currency", "type": "string"},
    ]
}


def jsonschema_rs(path):
    import jsonschema_rs
    import orjson

    make = getattr(jsonschema_rs, "validator_for", None) or jsonschema_rs.Draft202012Validator
    validator = make(SCHEMA)
    seen = set()
    records = problems = 0
    with open(path, "rb") as lines:
        for line in lines:
            if not line.strip():
                continue
            record = orjson.loads(line)
            records += 1
            if not validator.is_valid(record):
                problems += 1
            sku = record.get("sku")
            if sku is not None:
                if sku in seen:
                    problems += 1
                seen.add(sku)
    print(f"{records} records, {problems} problems")


def jsonschema_rs_schema(schema_path, path):
    import jsonschema_rs
    import orjson

    with open(schema_path, "rb") as f:
        schema = orjson.loads(f.read())
    make = getattr(jsonschema_rs, "validator_for", None) or jsonschema_rs.Draft202012Validator
    validator = make(schema)
    records = invalid = 0
    with open(path, "rb") as lines:
        for line in lines:
            if not line.strip():
                continue
            records += 1
            if not validator.is_valid(orjson.loads(line)):
                invalid += 1
    print(f"{records} records {invalid} invalid")


def frictionless(path):
    import os

    from frictionless import Resource, Schema

    # frictionless refuses paths outside its base path, absolute ones included.
    resource = Resource(
        path=os.path.basename(path), basepath=os.path.dirname(os.path.abspath(path)),
        schema=Schema.from_descriptor(TABLE_SCHEMA))
    report = resource.validate(limit_errors=1000)
    task = report.tasks[0]
    if task.stats.get("rows") is None:
        sys.exit(f"frictionless read no rows: {[error.message for error in task.errors]}")
    print(f"{task.stats.get('rows')} records, {len(task.errors)} problems")


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "jsonschema-rs-schema":
        return jsonschema_rs_schema(sys.argv[2], sys.argv[3])
    if len(sys.argv) != 3 or sys.argv[1] not in ("jsonschema-rs", "frictionless"):
        sys.exit(__doc__)
    {"jsonschema-rs": jsonschema_rs, "frictionless": frictionless}[sys.argv[1]](sys.argv[2])


if __name__ == "__main__":
    main()
