#!/usr/bin/python3
"""validate.py SCHEMA FILE...: validates each JSON file against SCHEMA
with python3-jsonschema (format checks on), offline: a $ref to the FIRST
CVSS schemas (https://www.first.org/cvss/cvss-v*.json?QUERY, as the CSAF
schema writes them) is resolved, query dropped, to the copy in first/
beside SCHEMA (see SOURCE.md there).  Prints the first error of each bad
file and exits 1; exit 0 when all are valid.

The CVE schema in tests/schemas (5.1.0) predates the CNA container's
cpeApplicability (CVE schema 5.1.1), which the kernel CNA's records
carry: when the schema lacks it, it is added as 5.1.1 defines it (an
array of {operator, negate, nodes: [{operator, negate, cpeMatch:
[{vulnerable, criteria, matchCriteriaId, versionStart/End...}]}]}),
nothing else loosened."""
import json
import os
import sys

import jsonschema


def local_schemas(folder):
    """The FIRST schemas by the address the CSAF schema gives them."""
    out = {}
    first = os.path.join(folder, "first")
    for name in sorted(os.listdir(first)) if os.path.isdir(first) else []:
        if name.endswith(".json"):
            with open(os.path.join(first, name)) as f:
                s = json.load(f)
            out["https://www.first.org/cvss/" + name] = s
    return out


def validator(schema, local):
    cls = jsonschema.validators.validator_for(schema)
    try:
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT202012

        def retrieve(uri):
            s = local[uri.split("?")[0]]
            return Resource.from_contents(s, default_specification=DRAFT202012)
        return cls(schema, registry=Registry(retrieve=retrieve),
                   format_checker=cls.FORMAT_CHECKER)
    except ImportError:  # python3-jsonschema before 4.18
        res = jsonschema.RefResolver.from_schema(
            schema, handlers={"https": lambda url: local[url.split("?")[0]]})
        return cls(schema, resolver=res, format_checker=cls.FORMAT_CHECKER)


VERSION = {"type": "string", "minLength": 1, "maxLength": 1024}
CPE_APPLICABILITY = {
    "type": "array",
    "items": {
        "type": "object",
        "required": ["nodes"],
        "properties": {
            "operator": {"type": "string", "enum": ["AND", "OR"]},
            "negate": {"type": "boolean"},
            "nodes": {"type": "array", "items": {
                "type": "object",
                "required": ["operator", "cpeMatch"],
                "properties": {
                    "operator": {"type": "string", "enum": ["AND", "OR"]},
                    "negate": {"type": "boolean"},
                    "cpeMatch": {"type": "array", "items": {
                        "type": "object",
                        "required": ["vulnerable", "criteria"],
                        "properties": {
                            "vulnerable": {"type": "boolean"},
                            "criteria": {"type": "string",
                                         "pattern": "^cpe:2\\.3:[aho\\*\\-]:",
                                         "minLength": 1, "maxLength": 2048},
                            "matchCriteriaId": {"type": "string", "format": "uuid"},
                            "versionStartExcluding": VERSION,
                            "versionStartIncluding": VERSION,
                            "versionEndExcluding": VERSION,
                            "versionEndIncluding": VERSION,
                        },
                        "additionalProperties": False}},
                },
                "additionalProperties": False}},
        },
        "additionalProperties": False},
}


def with_cpe_applicability(schema):
    cna = schema.get("definitions", {}).get("cnaPublishedContainer")
    if cna and "cpeApplicability" not in cna.get("properties", {}):
        cna["properties"]["cpeApplicability"] = CPE_APPLICABILITY
    return schema


def main():
    with open(sys.argv[1]) as f:
        schema = with_cpe_applicability(json.load(f))
    v = validator(schema, local_schemas(os.path.dirname(sys.argv[1])))
    bad = 0
    for path in sys.argv[2:]:
        with open(path) as f:
            doc = json.load(f)
        err = next(iter(v.iter_errors(doc)), None)
        if err is not None:
            bad = 1
            print("%s: %s at %s" % (path, err.message[:300],
                                    "/".join(str(p) for p in err.absolute_path)))
    return bad


sys.exit(main())
