/*
 * CVSS 3.1 base scores (cvss.h), by the specification's formula:
 *   ISS            1 - (1 - C) (1 - I) (1 - A)
 *   Impact         scope unchanged: 6.42 ISS; changed:
 *                  7.52 (ISS - 0.029) - 3.25 (ISS - 0.02)^15
 *   Exploitability 8.22 AV AC PR UI
 *   Base           0 when Impact <= 0; else Roundup(min(Impact +
 *                  Exploitability, 10)), the sum times 1.08 when the
 *                  scope changed
 * with the weights of the specification's table 16 (Privileges Required
 * weighs more when the scope changed) and its Roundup (appendix A: the
 * smallest one-decimal number not below the input, taken on the input
 * times 100000 rounded to an integer, so that a sum such as 4.000000001
 * from floating point does not round up to 4.1).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/cvss.h"

struct cvss_value {
	char letter;
	double weight;
	const char *word; /* the JSON schema's */
};

struct cvss_def {
	const char *abbrev;
	const char *name; /* the specification's */
	const char *json; /* the JSON schema's */
	struct cvss_value v[4];
};

static const struct cvss_def defs[CVSS_NMETRICS] = {
	{ "AV",
	  "Attack Vector",
	  "attackVector",
	  { { 'N', 0.85, "NETWORK" },
	    { 'A', 0.62, "ADJACENT_NETWORK" },
	    { 'L', 0.55, "LOCAL" },
	    { 'P', 0.2, "PHYSICAL" } } },
	{ "AC",
	  "Attack Complexity",
	  "attackComplexity",
	  { { 'L', 0.77, "LOW" }, { 'H', 0.44, "HIGH" } } },
	/* Unchanged scope's weights; scope changed: L 0.68, H 0.5. */
	{ "PR",
	  "Privileges Required",
	  "privilegesRequired",
	  { { 'N', 0.85, "NONE" },
	    { 'L', 0.62, "LOW" },
	    { 'H', 0.27, "HIGH" } } },
	{ "UI",
	  "User Interaction",
	  "userInteraction",
	  { { 'N', 0.85, "NONE" }, { 'R', 0.62, "REQUIRED" } } },
	{ "S",
	  "Scope",
	  "scope",
	  { { 'U', 0, "UNCHANGED" }, { 'C', 0, "CHANGED" } } },
	{ "C",
	  "Confidentiality",
	  "confidentialityImpact",
	  { { 'H', 0.56, "HIGH" }, { 'L', 0.22, "LOW" }, { 'N', 0, "NONE" } } },
	{ "I",
	  "Integrity",
	  "integrityImpact",
	  { { 'H', 0.56, "HIGH" }, { 'L', 0.22, "LOW" }, { 'N', 0, "NONE" } } },
	{ "A",
	  "Availability",
	  "availabilityImpact",
	  { { 'H', 0.56, "HIGH" }, { 'L', 0.22, "LOW" }, { 'N', 0, "NONE" } } },
};

/* The temporal and environmental metrics: valid in a 3.1 vector, but
 * they change no base score, and a record gives the base score only. */
static const char *const other_metrics[] = {
	"E",   "RL",  "RC", "CR", "IR", "AR", "MAV", "MAC",
	"MPR", "MUI", "MS", "MC", "MI", "MA", NULL,
};

static const struct cvss_value *value_of(const struct cvss_def *d, char c)
{
	for (size_t i = 0; i < 4 && d->v[i].letter; i++)
		if (d->v[i].letter == c)
			return &d->v[i];
	return NULL;
}

static double weight(const struct cvss *c, enum cvss_metric m)
{
	double w = value_of(&defs[m], c->value[m])->weight;

	if (m == CVSS_PR && c->value[CVSS_S] == 'C')
		w = c->value[m] == 'L' ? 0.68 : c->value[m] == 'H' ? 0.5 : w;
	return w;
}

/* Roundup in tenths (appendix A of the specification). */
static int roundup10(double x)
{
	long n = lround(x * 100000.0);

	return (int)(n % 10000 == 0 ? n / 10000 : n / 10000 + 1);
}

static void score(struct cvss *c)
{
	double iss = 1.0 -
		(1.0 - weight(c, CVSS_C)) * (1.0 - weight(c, CVSS_I)) *
			(1.0 - weight(c, CVSS_A));
	bool changed = c->value[CVSS_S] == 'C';
	double impact = changed
		? 7.52 * (iss - 0.029) - 3.25 * pow(iss - 0.02, 15)
		: 6.42 * iss;
	double expl = 8.22 * weight(c, CVSS_AV) * weight(c, CVSS_AC) *
		weight(c, CVSS_PR) * weight(c, CVSS_UI);
	double sum = changed ? 1.08 * (impact + expl) : impact + expl;

	c->score = impact <= 0 ? 0 : roundup10(sum < 10 ? sum : 10);
	c->severity = c->score == 0 ? "NONE"
		: c->score < 40	    ? "LOW"
		: c->score < 70	    ? "MEDIUM"
		: c->score < 90	    ? "HIGH"
				    : "CRITICAL";
}

/* The letters a metric takes, "N, A, L, P", into buf. */
static const char *letters(const struct cvss_def *d, char *buf)
{
	size_t n = 0;

	for (size_t i = 0; i < 4 && d->v[i].letter; i++)
		n += (size_t)sprintf(buf + n, "%s%c", i ? ", " : "",
				     d->v[i].letter);
	return buf;
}

#define VECTOR_MAX 256

static int bad(struct err *err, const char *vector, const char *fmt,
	       const char *a, const char *b)
{
	char what[160];

	snprintf(what, sizeof(what), fmt, a, b);
	return err_setc(err, ERR_INVALID, "the CVSS vector '%.*s': %s", 120,
			vector, what);
}

/* One "M:V" of the vector (len bytes at s) into c. */
static int parse_metric(const char *vector, const char *s, size_t len,
			struct cvss *c, struct err *err)
{
	char m[16], buf[32];
	const char *colon = memchr(s, ':', len);
	size_t mlen = colon ? (size_t)(colon - s) : len;
	const struct cvss_value *v;

	if (!len)
		return bad(err, vector,
			   "an empty metric (two '/' in a row%s%s)",
			   ", or one at the end", "");
	if (mlen >= sizeof(m) || len > 24)
		return bad(err, vector, "'%.24s' is no CVSS 3.1 metric%s", s,
			   "");
	memcpy(m, s, mlen);
	m[mlen] = '\0';
	snprintf(buf, sizeof(buf), "%.*s", (int)len, s);
	for (int i = 0; i < CVSS_NMETRICS; i++) {
		if (strcmp(defs[i].abbrev, m))
			continue;
		if (c->value[i])
			return bad(err, vector, "%s (%s) is given twice", m,
				   defs[i].name);
		v = colon && len - mlen == 2 ? value_of(&defs[i], colon[1])
					     : NULL;
		if (!v) {
			char l[32], what[96];
			snprintf(what, sizeof(what), "%s takes %s",
				 defs[i].name, letters(&defs[i], l));
			return bad(err, vector, "'%s' is no value: %s", buf,
				   what);
		}
		c->value[i] = v->letter;
		return 0;
	}
	for (size_t i = 0; other_metrics[i]; i++)
		if (!strcmp(other_metrics[i], m))
			return bad(
				err, vector,
				"'%s' is a temporal or environmental metric: a record gives the base score, of the base metrics alone%s",
				buf, "");
	return bad(
		err, vector,
		"'%s' is no CVSS 3.1 metric (the base metrics: AV, AC, PR, UI, S, C, I, A)%s",
		buf, "");
}

int cvss_parse(const char *vector, struct cvss *out, struct err *err)
{
	const char *p;
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	if (!vector || !*vector)
		return err_setc(
			err, ERR_INVALID,
			"the CVSS vector is empty (CVSS:3.1/AV:.../A:...)");
	if (strlen(vector) > VECTOR_MAX)
		return err_setc(
			err, ERR_INVALID,
			"the CVSS vector '%.40s...' is too long (%zu bytes): a 3.1 base vector is 44",
			vector, strlen(vector));
	if (strncmp(vector, "CVSS:3.1/", 9))
		return bad(
			err, vector,
			str_starts(vector, "CVSS:")
				? "not CVSS 3.1: it begins '%.9s', where the version recorded is 3.1 (CVSS:3.1/...)%s"
				: "no 'CVSS:3.1/' at its start%.0s%s",
			vector, "");
	for (p = vector + 9;;) {
		size_t len = strcspn(p, "/");
		if (parse_metric(vector, p, len, out, err) < 0)
			return err->code;
		if (!p[len])
			break;
		p += len + 1;
	}
	for (int i = 0; i < CVSS_NMETRICS; i++)
		if (!out->value[i])
			return bad(err, vector,
				   "the base metric %s (%s) is missing",
				   defs[i].abbrev, defs[i].name);
	n = (size_t)snprintf(out->vector, sizeof(out->vector), "CVSS:3.1");
	for (int i = 0; i < CVSS_NMETRICS; i++)
		n += (size_t)snprintf(out->vector + n, sizeof(out->vector) - n,
				      "/%s:%c", defs[i].abbrev, out->value[i]);
	score(out);
	return 0;
}

const char *cvss_json_name(enum cvss_metric m)
{
	return defs[m].json;
}

const char *cvss_json_value(const struct cvss *c, enum cvss_metric m)
{
	return value_of(&defs[m], c->value[m])->word;
}

char *cvss_score_str(int score, char *buf)
{
	unsigned s = score < 0 ? 0 : score > 100 ? 100 : (unsigned)score;

	snprintf(buf, 8, "%u.%u", (s / 10) % 100, s % 10);
	return buf;
}
