/*
 * The PostgreSQL engine (libpq): the team server.
 *
 * Each officer logs in with their own role; the server, not the client,
 * records who did what (triggers of schema-pg.c set the officer columns
 * to session_user).  Writers take one transaction-scoped advisory lock,
 * so writes are serial as on SQLite and event ids grow in commit order;
 * readers never wait.  A statement's first run on a connection goes
 * unnamed (parse, bind and execute in one round trip), its second
 * prepares it for the runs after: a command that runs each statement
 * once waits on the server once per statement, and a long-lived UI or
 * import still parses each just once.  The repositories' "?N" parameters
 * become "$N" here.  Results are read in
 * text form (bytea as hex, decoded on demand).  LISTEN/NOTIFY tells an
 * open UI that a colleague changed something.
 *
 * Nothing here reconnects behind the caller's back: a server that goes
 * away mid-command fails that command with a clear message, and the
 * server rolls back whatever it had not committed.
 */
#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "store/schema.h"
#include "store/store-int.h"

/*
 * libpq is loaded when a team server is first opened (dlopen, util/dl.c),
 * not by every start of the program: it brings some twenty libraries
 * (OpenSSL, Kerberos, LDAP, GnuTLS), whose symbols every command resolved
 * at its start and whose mappings every fork copied (GPGME starts gpg with
 * two per message), though an officer on SQLite never uses them.
 */
#define PQ_SONAME "libpq.so.5"
#define PQ_FNS(X)                \
	X(PQclear)               \
	X(PQcmdStatus)           \
	X(PQcmdTuples)           \
	X(PQconnectdb)           \
	X(PQconninfoFree)        \
	X(PQconninfoParse)       \
	X(PQconsumeInput)        \
	X(PQdb)                  \
	X(PQencryptPasswordConn) \
	X(PQenterPipelineMode)   \
	X(PQerrorMessage)        \
	X(PQexec)                \
	X(PQexecParams)          \
	X(PQexecPrepared)        \
	X(PQexitPipelineMode)    \
	X(PQfinish)              \
	X(PQfreemem)             \
	X(PQgetResult)           \
	X(PQgetisnull)           \
	X(PQgetvalue)            \
	X(PQhost)                \
	X(PQnotifies)            \
	X(PQntuples)             \
	X(PQpipelineSync)        \
	X(PQport)                \
	X(PQprepare)             \
	X(PQreset)               \
	X(PQresultErrorField)    \
	X(PQresultErrorMessage)  \
	X(PQresultStatus)        \
	X(PQsendPrepare)         \
	X(PQsendQueryParams)     \
	X(PQsendQueryPrepared)   \
	X(PQsetNoticeReceiver)   \
	X(PQsocket)              \
	X(PQstatus)              \
	X(PQtransactionStatus)   \
	X(PQunescapeBytea)       \
	X(PQuser)

static struct {
#define PQ_FIELD(f) __typeof__(f) *f;
	PQ_FNS(PQ_FIELD)
#undef PQ_FIELD
} pq;

static int pq_load(struct err *err)
{
	static void *lib;
#define PQ_NAME(f) #f,
#define PQ_SLOT(f) (void **)&pq.f,
	static const char *const names[] = { PQ_FNS(PQ_NAME) };
	void **const slots[] = { PQ_FNS(PQ_SLOT) };
#undef PQ_NAME
#undef PQ_SLOT

	return dl_load_deep(&lib, PQ_SONAME, "the team server",
			    "libpq 14 or later", names, slots,
			    ARRAY_SIZE(names), err);
}

#define PG_MAX_PARAMS 64
/* The advisory lock every writer takes (any constant the team's
 * database does not use for something else). */
#define PG_WRITE_LOCK "5363746561" /* "Sctea" */

/* Statements sent at most before their results are read: theirs are
 * small, but the socket's buffer is not endless. */
#define PIPE_MAX 256

struct pg {
	PGconn *conn;
	unsigned nstmt;         /* names prepared so far */
	enum db_fault fault;
	char *errmsg;
	bool listening;
	unsigned gen;           /* connections so far, from 1: statements
				 * prepared on an earlier one are prepared
				 * again */
	bool catch_up;          /* reconnected: what changed meanwhile was
				 * not notified */
	bool piped; /* in libpq's pipeline mode (pg_send) */
	int pending; /* statements sent whose results are unread */
	/* What each of them is (db_send's what; a prepare's own), in the
	 * order their results come, to name the one that failed. */
	const char *pending_what[PIPE_MAX + 2];
};

struct pg_stmt {
	struct stmt base;
	char name[16];
	int nparams;
	char *values[PG_MAX_PARAMS];
	int lengths[PG_MAX_PARAMS];
	int formats[PG_MAX_PARAMS];
	bool owned[PG_MAX_PARAMS];
	PGresult *res;
	char *query;            /* in the server's dialect */
	unsigned gen;           /* the connection it is prepared on (0: none) */
	unsigned ran_gen;       /* the connection it last ran on unnamed */
	int row, nrows;         /* the current row is row - 1 */
	unsigned char *blob;    /* the last decoded bytea column */
	int64_t changes;
};

#define PG(s) ((struct pg *)(s)->conn)
#define PST(x) ((struct pg_stmt *)(x))

/* One line, without libpq's trailing newline and "ERROR:  " prefix. */
static void set_fault(struct store *s, enum db_fault f, const char *msg)
{
	struct pg *p = PG(s);
	size_t n;

	free(p->errmsg);
	if (!msg || !*msg)
		msg = "unknown error";
	if (!strncmp(msg, "ERROR:  ", 8))
		msg += 8;
	if (!strncmp(msg, "FATAL:  ", 8))
		msg += 8;
	n = strcspn(msg, "\n");
	p->errmsg = xstrndup(msg, n);
	p->fault = f;
}

static enum db_fault classify(PGconn *c, const PGresult *r)
{
	const char *code = r ? pq.PQresultErrorField(r, PG_DIAG_SQLSTATE)
			     : NULL;

	if (pq.PQstatus(c) == CONNECTION_BAD)
		return DB_FAULT_CONN;
	if (!code)
		return DB_FAULT_OTHER;
	if (!strcmp(code, "23505"))
		return DB_FAULT_UNIQUE;
	if (!strncmp(code, "23", 2))
		return DB_FAULT_CHECK;
	if (!strcmp(code, "42501"))
		return DB_FAULT_PERM;
	if (!strcmp(code, "40001") || !strcmp(code, "40P01") ||
	    !strcmp(code, "55P03"))
		return DB_FAULT_BUSY;
	if (!strcmp(code, "53100"))
		return DB_FAULT_FULL;
	/* 57P01 admin shutdown, 08xxx connection exceptions */
	if (!strncmp(code, "08", 2) || !strncmp(code, "57P", 3))
		return DB_FAULT_CONN;
	return DB_FAULT_OTHER;
}

/* Records r's failure (r may be NULL: a connection-level failure). */
static void note(struct store *s, const PGresult *r)
{
	PGconn *c = PG(s)->conn;
	const char *m = r ? pq.PQresultErrorMessage(r) : NULL;

	if (!m || !*m)
		m = pq.PQerrorMessage(c);
	set_fault(s, classify(c, r), m);
}

static bool ok_status(const PGresult *r)
{
	ExecStatusType t = r ? pq.PQresultStatus(r) : PGRES_FATAL_ERROR;

	return t == PGRES_COMMAND_OK || t == PGRES_TUPLES_OK;
}

/*
 * Pipelined writes (db_send): sent one after another without waiting,
 * their results read at the next statement that waits (a read, a
 * prepare, the commit), which fails when one of them failed, with the
 * first error.  After an error the server skips the rest until the
 * sync, and the transaction is lost: the commit says so.
 */
static int pipe_end(struct store *s)
{
	struct pg *p = PG(s);
	int ret = 0, nulls = 0;
	bool synced = false;

	s->sent_failed = NULL;
	if (!p->piped)
		return 0;
	if (pq.PQpipelineSync(p->conn) != 1) {
		note(s, NULL);
		ret = -1;
	}
	/* Each statement's results end with a NULL; the sync's with
	 * PGRES_PIPELINE_SYNC.  A lost connection ends it too. */
	while (ret == 0 && !synced && pq.PQstatus(p->conn) == CONNECTION_OK) {
		PGresult *r = pq.PQgetResult(p->conn);

		if (!r) {
			if (++nulls > p->pending + 1)
				break;
			continue;
		}
		switch (pq.PQresultStatus(r)) {
		case PGRES_PIPELINE_SYNC:
			synced = true;
			break;
		case PGRES_COMMAND_OK:
		case PGRES_TUPLES_OK:
		case PGRES_PIPELINE_ABORTED: /* after the error noted */
			break;
		default:
			note(s, r);
			/* The statement whose result this is: as many
			 * ended before it as NULLs were read. */
			if (nulls < p->pending)
				s->sent_failed = p->pending_what[nulls];
			ret = -1;
			break;
		}
		pq.PQclear(r);
	}
	/* Past an error, the rest up to the sync. */
	while (!synced && pq.PQstatus(p->conn) == CONNECTION_OK) {
		PGresult *r = pq.PQgetResult(p->conn);

		if (!r) {
			if (++nulls > p->pending + 2)
				break;
			continue;
		}
		synced = pq.PQresultStatus(r) == PGRES_PIPELINE_SYNC;
		pq.PQclear(r);
	}
	if (!synced && ret == 0) {
		note(s, NULL);
		ret = -1;
	}
	if (pq.PQexitPipelineMode(p->conn) != 1 && ret == 0) {
		note(s, NULL);
		ret = -1;
	}
	p->piped = false;
	p->pending = 0;
	return ret;
}

static int pg_exec(struct store *s, const char *sql)
{
	PGresult *r;
	int ret = 0;

	if (pipe_end(s) < 0)
		return -1;
	r = pq.PQexec(PG(s)->conn, sql);
	if (!ok_status(r)) {
		note(s, r);
		ret = -1;
	}
	pq.PQclear(r);
	return ret;
}

/* "team server 'HOST:PORT/DB'" (never the password or the whole
 * connection string). */
static char *server_name(PGconn *c)
{
	const char *host = pq.PQhost(c), *port = pq.PQport(c), *db = pq.PQdb(c);

	return xasprintf("team server '%s%s%s/%s'", host && *host ? host : "local",
			 port && *port ? ":" : "", port ? port : "",
			 db ? db : "?");
}

/* The service a connection string names (service=NAME, else
 * $PGSERVICE), or NULL (caller frees). */
static char *service_of(const char *where)
{
	PQconninfoOption *opts = pq.PQconninfoParse(where, NULL);
	char *svc = NULL;

	for (PQconninfoOption *o = opts; o && o->keyword; o++)
		if (!strcmp(o->keyword, "service") && o->val && *o->val)
			svc = xstrdup(o->val);
	pq.PQconninfoFree(opts);
	if (!svc && getenv("PGSERVICE") && *getenv("PGSERVICE"))
		svc = xstrdup(getenv("PGSERVICE"));
	return svc;
}

static char *service_where(const char *svc)
{
	return xasprintf("team server of service '%s'", svc);
}

/* Where libpq looked the service up, for the error (static text). */
static const char *service_files(void)
{
	static char buf[1024];
	const char *user = getenv("PGSERVICEFILE"), *sys = getenv("PGSYSCONFDIR");
	const char *home = getenv("HOME");

	snprintf(buf, sizeof(buf), " (looked up in '%s%s' and in '%s/pg_service.conf')",
		 user ? user : home ? home : "~", user ? "" : "/.pg_service.conf",
		 sys ? sys : "/etc/postgresql-common");
	return buf;
}

/*
 * The server's notices ("role ... is already a member", "truncate
 * cascades to ...") are about our own DDL and would land on a terminal
 * that curses may own.  Errors reach us through results, so notices are
 * dropped, and the session asks for warnings and above only.
 */
static void pg_notice(void *arg, const PGresult *res)
{
	(void)arg;
	(void)res;
}

/*
 * libpq's connection error as one line: what it tried and why, e.g.
 *   connection to server on socket "/run/x/.s.PGSQL.5432" failed: No such
 *   file or directory\n\tIs the server running locally and accepting ...?
 * becomes 'on socket "..." failed: No such file or directory (is the
 * server running locally and accepting ...?)'; a server's "FATAL:  "
 * goes (caller frees).
 */
static char *connect_error(const char *m)
{
	struct sbuf b = SBUF_INIT;
	const char *hint, *fatal;
	size_t n;

	if (!strncmp(m, "connection to server ", 21))
		m += 21;
	n = strcspn(m, "\n");
	fatal = strstr(m, "FATAL:  ");
	if (fatal && (size_t)(fatal - m) < n) {
		sbuf_add(&b, m, (size_t)(fatal - m));
		n -= (size_t)(fatal - m) + 8;
		m = fatal + 8;
	}
	sbuf_add(&b, m, n);
	hint = m[n] == '\n' && m[n + 1] == '\t' ? m + n + 2 : NULL;
	if (hint && *hint && *hint != '\n') {
		int h = (int)strcspn(hint, "\n");
		sbuf_addf(&b, " (%c%.*s)", tolower((unsigned char)*hint), h - 1,
			  hint + 1);
	}
	if (!b.buf)
		sbuf_grow(&b, 1);
	return sbuf_detach(&b, NULL);
}

/* One round trip for the whole session set-up. */
static int session_setup(struct store *s)
{
	char *msg;
	int r;

	/* libpq learns the encoding from the server's answer. */
	msg = xasprintf("SET client_encoding = 'UTF8';"
			"SET search_path = secteam, pg_catalog;"
			"SET application_name = 'secteam-tui';"
			"SET client_min_messages = warning;"
			"SET lock_timeout = %d;",
			s->busy_timeout_ms);
	r = pg_exec(s, msg);
	free(msg);
	return r;
}

static int pg_open(struct store *s, const char *where,
		   const struct store_opts *o, struct err *err)
{
	struct pg *p = xcalloc(1, sizeof(*p));
	char *msg;
	int r;

	(void)o;
	s->conn = p;
	p->gen = 1;
	if (pq_load(err) < 0)
		return -1;
	p->conn = pq.PQconnectdb(where);
	if (!p->conn)
		return err_setc(err, ERR_IO, "cannot reach the team server: out of memory");
	if (pq.PQstatus(p->conn) != CONNECTION_OK) {
		char *svc = service_of(where);
		msg = connect_error(pq.PQerrorMessage(p->conn));
		s->where = svc && strstr(msg, "service") ? service_where(svc) : server_name(p->conn);
		r = err_setc(err, ERR_IO, "cannot reach the %s: %s%s", s->where, msg,
			     svc && strstr(msg, "service") ? service_files() : "");
		free(svc);
		free(msg);
		return r;
	}
	s->where = server_name(p->conn);
	pq.PQsetNoticeReceiver(p->conn, pg_notice, NULL);
	if (session_setup(s) < 0)
		return store_dberr(s, err, "cannot set up the session");
	return 0;
}

/* The connection's lost: one try to make it again, with the session set
 * up as at open; the statements are prepared again when next used, and
 * the next poll_changed says "changed" (nothing was notified meanwhile). */
static int pg_reconnect(struct store *s)
{
	struct pg *p = PG(s);

	if (pq.PQstatus(p->conn) == CONNECTION_OK)
		return 0;
	pq.PQreset(p->conn);
	if (pq.PQstatus(p->conn) != CONNECTION_OK) {
		const char *m = pq.PQerrorMessage(p->conn);
		/* Not away but shut out: no retry will help. */
		bool shut = strstr(m, "is not permitted to log in") ||
			    strstr(m, "permission denied for database") ||
			    strstr(m, "password authentication failed") ||
			    (strstr(m, "role \"") && strstr(m, "\" does not exist"));
		note(s, NULL);
		if (shut)
			p->fault = DB_FAULT_PERM;
		return -1;
	}
	p->gen++;
	p->listening = false;
	p->catch_up = true;
	return session_setup(s);
}

static char *pg_password_verifier(struct store *s, const char *role, const char *password)
{
	char *v = pq.PQencryptPasswordConn(PG(s)->conn, password, role,
					   "scram-sha-256");
	char *out = v ? xstrdup(v) : NULL;

	if (!v)
		note(s, NULL);
	pq.PQfreemem(v);
	return out;
}

static bool pg_connected(struct store *s)
{
	return pq.PQstatus(PG(s)->conn) == CONNECTION_OK;
}

static void pg_close(struct store *s)
{
	struct pg *p = PG(s);

	if (!p)
		return;
	if (p->conn)
		pq.PQfinish(p->conn);
	free(p->errmsg);
	free(p);
	s->conn = NULL;
}

/*
 * "?N" becomes "$N" outside quoted text; *nparams gets the highest N.
 * SQLite's instr(a, b) is strpos(a, b) here.
 */
static char *translate(const char *sql, int *nparams)
{
	struct sbuf sb = SBUF_INIT;
	char quote = 0;

	*nparams = 0;
	for (const char *p = sql; *p; p++) {
		if (quote) {
			if (*p == quote)
				quote = 0;
			sbuf_addch(&sb, *p);
			continue;
		}
		if (*p == '\'' || *p == '"') {
			quote = *p;
			sbuf_addch(&sb, *p);
			continue;
		}
		if (*p == '?' && isdigit((unsigned char)p[1])) {
			int n = 0;

			sbuf_addch(&sb, '$');
			while (isdigit((unsigned char)p[1])) {
				n = n * 10 + (p[1] - '0');
				sbuf_addch(&sb, *++p);
			}
			if (n > *nparams)
				*nparams = n;
			continue;
		}
		if (!strncmp(p, "instr(", 6) &&
		    (p == sql || !isalnum((unsigned char)p[-1]))) {
			sbuf_adds(&sb, "strpos(");
			p += 5;
			continue;
		}
		sbuf_addch(&sb, *p);
	}
	return sbuf_detach(&sb, NULL);
}

static struct stmt *pg_prepare(struct store *s, const char *sql)
{
	struct pg *p = PG(s);
	struct pg_stmt *ps = xcalloc(1, sizeof(*ps));

	ps->query = translate(sql, &ps->nparams);
	assert(ps->nparams <= PG_MAX_PARAMS);
	ps->base.s = s;
	snprintf(ps->name, sizeof(ps->name), "st%u", p->nstmt++);
	/* Prepared on the server at its second run (run_unnamed). */
	return &ps->base;
}

static void clear_param(struct pg_stmt *ps, int i)
{
	if (ps->owned[i])
		free(ps->values[i]);
	ps->values[i] = NULL;
	ps->owned[i] = false;
	ps->lengths[i] = 0;
	ps->formats[i] = 0;
}

static void pg_reset(struct stmt *x)
{
	struct pg_stmt *ps = PST(x);

	for (int i = 0; i < ps->nparams; i++)
		clear_param(ps, i);
	pq.PQclear(ps->res);
	ps->res = NULL;
	ps->row = ps->nrows = 0;
	pq.PQfreemem(ps->blob);
	ps->blob = NULL;
}

static void pg_finalize(struct stmt *x)
{
	pg_reset(x);
	/* The connection's prepared statements end with it. */
	free(PST(x)->query);
	free(x);
}

/* True when this run goes unnamed: the statement's first on this
 * connection.  A statement that runs again is worth preparing. */
static bool run_unnamed(struct pg_stmt *ps)
{
	struct pg *p = PG(ps->base.s);

	if (ps->gen == p->gen || ps->ran_gen == p->gen)
		return false;
	ps->ran_gen = p->gen;
	return true;
}

/* A statement not prepared on this connection yet, prepared. */
static int reprepare(struct pg_stmt *ps)
{
	struct store *s = ps->base.s;
	struct pg *p = PG(s);
	PGresult *r;

	if (ps->gen == p->gen)
		return 0;
	if (pipe_end(s) < 0)
		return -1;
	r = pq.PQprepare(p->conn, ps->name, ps->query, 0, NULL);
	if (!ok_status(r)) {
		note(s, r);
		pq.PQclear(r);
		return -1;
	}
	pq.PQclear(r);
	ps->gen = p->gen;
	return 0;
}

static void set_param(struct stmt *x, int i, char *v, bool owned, int len,
		      int fmt)
{
	struct pg_stmt *ps = PST(x);

	assert(i >= 1 && i <= ps->nparams);
	clear_param(ps, i - 1);
	ps->values[i - 1] = v;
	ps->owned[i - 1] = owned;
	ps->lengths[i - 1] = len;
	ps->formats[i - 1] = fmt;
}

static void pg_bind_int(struct stmt *x, int i, int64_t v)
{
	set_param(x, i, xasprintf("%lld", (long long)v), true, 0, 0);
}

static void pg_bind_text(struct stmt *x, int i, const char *v)
{
	set_param(x, i, xstrdup(v), true, 0, 0);
}

static void pg_bind_blob(struct stmt *x, int i, const void *p, size_t n)
{
	assert(n <= 0x7fffffff);
	set_param(x, i, (char *)(p ? p : ""), false, (int)n, 1);
}

static void pg_bind_null(struct stmt *x, int i)
{
	set_param(x, i, NULL, false, 0, 0);
}

static int pg_step(struct stmt *x)
{
	struct pg_stmt *ps = PST(x);
	struct store *s = x->s;

	if (!ps->res) {
		if (pipe_end(s) < 0)
			return -1;
		if (run_unnamed(ps))
			ps->res = pq.PQexecParams(
				PG(s)->conn, ps->query, ps->nparams, NULL,
				(const char *const *)ps->values, ps->lengths,
				ps->formats, 0);
		else if (reprepare(ps) < 0)
			return -1;
		else
			ps->res = pq.PQexecPrepared(
				PG(s)->conn, ps->name, ps->nparams,
				(const char *const *)ps->values, ps->lengths,
				ps->formats, 0);
		if (!ok_status(ps->res)) {
			note(s, ps->res);
			pq.PQclear(ps->res);
			ps->res = NULL;
			return -1;
		}
		ps->nrows = pq.PQresultStatus(ps->res) == PGRES_TUPLES_OK
			? pq.PQntuples(ps->res)
			: 0;
		ps->changes = atoll(pq.PQcmdTuples(ps->res));
		ps->row = 0;
	}
	pq.PQfreemem(ps->blob);
	ps->blob = NULL;
	if (ps->row >= ps->nrows)
		return 0;
	ps->row++;
	return 1;
}

static int pg_send(struct stmt *x)
{
	struct pg_stmt *ps = PST(x);
	struct store *s = x->s;
	struct pg *p = PG(s);

	int sent;

	if (p->pending >= PIPE_MAX && pipe_end(s) < 0)
		return -1;
	if (!p->piped) {
		if (pq.PQenterPipelineMode(p->conn) != 1) {
			note(s, NULL);
			return -1;
		}
		p->piped = true;
	}
	if (run_unnamed(ps)) {
		sent = pq.PQsendQueryParams(p->conn, ps->query, ps->nparams,
					    NULL,
					    (const char *const *)ps->values,
					    ps->lengths, ps->formats, 0);
	} else {
		/* Prepared in the pipeline: no wait of its own.  Should it
		 * fail, the pipeline fails with it, and so does the
		 * transaction. */
		if (ps->gen != p->gen) {
			if (pq.PQsendPrepare(p->conn, ps->name, ps->query, 0,
					     NULL) != 1) {
				note(s, NULL);
				return -1;
			}
			p->pending_what[p->pending++] =
				"cannot prepare a statement";
			ps->gen = p->gen;
		}
		sent = pq.PQsendQueryPrepared(p->conn, ps->name, ps->nparams,
					      (const char *const *)ps->values,
					      ps->lengths, ps->formats, 0);
	}
	if (sent != 1) {
		note(s, NULL);
		return -1;
	}
	p->pending_what[p->pending++] = s->sending ? s->sending
						   : "cannot write";
	ps->changes = -1; /* not known: nothing reads it */
	return 0;
}

static bool pg_col_null(struct stmt *x, int i)
{
	struct pg_stmt *ps = PST(x);

	return !ps->res || ps->row < 1 ||
		pq.PQgetisnull(ps->res, ps->row - 1, i);
}

static const char *pg_col_text(struct stmt *x, int i)
{
	struct pg_stmt *ps = PST(x);

	if (pg_col_null(x, i))
		return NULL;
	return pq.PQgetvalue(ps->res, ps->row - 1, i);
}

static int64_t pg_col_int(struct stmt *x, int i)
{
	const char *t = pg_col_text(x, i);

	return t ? strtoll(t, NULL, 10) : 0;
}

static const void *pg_col_blob(struct stmt *x, int i, size_t *n)
{
	struct pg_stmt *ps = PST(x);
	const char *t = pg_col_text(x, i);

	*n = 0;
	if (!t)
		return NULL;
	pq.PQfreemem(ps->blob);
	ps->blob = pq.PQunescapeBytea((const unsigned char *)t, n);
	if (!ps->blob)
		abort(); /* out of memory, as xmalloc would */
	return ps->blob;
}

static int64_t pg_changes(struct stmt *x)
{
	return PST(x)->changes;
}

static int pg_begin(struct store *s)
{
	/* One round trip: the lock's failure is the answer's. */
	if (pg_exec(s,
		    "BEGIN; SELECT pg_advisory_xact_lock(" PG_WRITE_LOCK
		    ")") < 0) {
		enum db_fault f = PG(s)->fault;
		char *m = xstrdup(PG(s)->errmsg);

		pg_exec(s, "ROLLBACK");
		set_fault(s, f, m);
		free(m);
		return -1;
	}
	return 0;
}

/* COMMIT of a transaction that failed answers "ROLLBACK": that is a
 * failure, not a success. */
static int pg_commit(struct store *s)
{
	PGresult *r;
	int ret = 0;

	if (pipe_end(s) < 0)
		return -1;
	r = pq.PQexec(PG(s)->conn, "COMMIT");

	if (!ok_status(r)) {
		note(s, r);
		ret = -1;
	} else if (strcmp(pq.PQcmdStatus(r), "COMMIT")) {
		set_fault(s, DB_FAULT_OTHER,
			  "the transaction was rolled back by the server");
		ret = -1;
	}
	pq.PQclear(r);
	return ret;
}

static void pg_rollback(struct store *s)
{
	/* Keep the error that made us roll back. */
	enum db_fault f = PG(s)->fault;
	char *m;

	if (!PG(s)->piped &&
	    pq.PQtransactionStatus(PG(s)->conn) == PQTRANS_IDLE)
		return;
	m = PG(s)->errmsg ? xstrdup(PG(s)->errmsg) : NULL;
	pipe_end(s);
	if (pq.PQtransactionStatus(PG(s)->conn) != PQTRANS_IDLE)
		pg_exec(s, "ROLLBACK");
	set_fault(s, f, m);
	free(m);
}

static enum db_fault pg_fault(struct store *s)
{
	return PG(s)->fault;
}

static const char *pg_errmsg(struct store *s)
{
	return PG(s)->errmsg ? PG(s)->errmsg : "unknown error";
}

/* Runs a one-value query; the value (caller frees) or NULL. */
static char *pg_value(struct store *s, const char *sql)
{
	PGresult *r;
	char *v = NULL;

	if (pipe_end(s) < 0)
		return NULL;
	r = pq.PQexec(PG(s)->conn, sql);
	if (pq.PQresultStatus(r) == PGRES_TUPLES_OK && pq.PQntuples(r) > 0 &&
	    !pq.PQgetisnull(r, 0, 0))
		v = xstrdup(pq.PQgetvalue(r, 0, 0));
	else if (!ok_status(r))
		note(s, r);
	pq.PQclear(r);
	return v;
}

/* The version in secteam.schema_info: 0 when the table does not exist
 * (a database without the team schema), -1 on another error. */
static int pg_schema_version(struct store *s)
{
	PGresult *r = pq.PQexec(
		PG(s)->conn,
		"SELECT coalesce(max(version), 0) FROM secteam.schema_info");
	const char *code = pq.PQresultErrorField(r, PG_DIAG_SQLSTATE);
	int n = -1;

	if (pq.PQresultStatus(r) == PGRES_TUPLES_OK && pq.PQntuples(r) > 0)
		n = atoi(pq.PQgetvalue(r, 0, 0));
	else if (code && (!strcmp(code, "42P01") || !strcmp(code, "3F000")))
		n = 0;  /* no such table, or no such schema */
	else
		note(s, r);
	pq.PQclear(r);
	return n;
}

static int pg_migrate(struct store *s, struct err *err)
{
	size_t n = schema_pg_count;
	/* As store_open read it. */
	int v = s->found_version, r;

	if (v < 0)
		return store_dberr(s, err, "cannot read the schema version");
	if ((size_t)v == n)
		return 0;
	if ((size_t)v > n)
		return err_setc(err, ERR_INVALID,
				"%s has schema version %d, newer than this secteam-tui (%zu); upgrade secteam-tui",
				s->where, v, n);
	if ((r = store_begin(s, err)) < 0)
		return r;
	for (size_t i = (size_t)v; i < n; i++) {
		char ver[96];

		snprintf(ver, sizeof(ver),
			 "INSERT INTO secteam.schema_info (version) VALUES (%zu)",
			 i + 1);
		if (pg_exec(s, schema_pg[i]) < 0 || pg_exec(s, ver) < 0) {
			if (PG(s)->fault == DB_FAULT_PERM)
				r = err_setc(err, ERR_REFUSED,
					     "%s needs its schema upgraded to version %zu (%s); the team's administrator runs 'secteam-tui team init'",
					     s->where, n, PG(s)->errmsg);
			else
				r = store_dberr(s, err, "cannot upgrade the schema");
			store_rollback(s);
			return r;
		}
	}
	return store_commit(s, err);
}

static int pg_check(struct store *s, struct err *err)
{
	/* The server keeps its own pages; a query that reads every table
	 * is the check that means something from a client. */
	if (pg_exec(s, "SELECT count(*) FROM reports, (SELECT count(*) FROM events) e") < 0)
		return store_dberr(s, err, "cannot check");
	return 0;
}

/* The role this connection logged in as: session_user, which the
 * server's triggers record, without asking the server. */
static char *pg_whoami(struct store *s)
{
	const char *u = pq.PQuser(PG(s)->conn);

	return u && *u ? xstrdup(u) : pg_value(s, "SELECT session_user");
}

static int pg_watch_fd(struct store *s)
{
	struct pg *p = PG(s);

	if (!p->listening) {
		if (pg_exec(s, "LISTEN secteam") < 0)
			return -1;
		p->listening = true;
	}
	return pq.PQsocket(p->conn);
}

static bool pg_poll_changed(struct store *s)
{
	struct pg *p = PG(s);
	PGnotify *n;
	bool changed = false;

	if (p->catch_up) {
		p->catch_up = false;
		return true;
	}
	if (!p->listening && pg_watch_fd(s) < 0)
		return false;
	pq.PQconsumeInput(p->conn);
	while ((n = pq.PQnotifies(p->conn))) {
		changed = true;
		pq.PQfreemem(n);
	}
	return changed;
}

const struct engine db_pg_engine = {
	.name = "postgresql",
	.open = pg_open,
	.close = pg_close,
	.exec = pg_exec,
	.prepare = pg_prepare,
	.finalize = pg_finalize,
	.reset = pg_reset,
	.bind_int = pg_bind_int,
	.bind_text = pg_bind_text,
	.bind_blob = pg_bind_blob,
	.bind_null = pg_bind_null,
	.step = pg_step,
	.col_null = pg_col_null,
	.col_int = pg_col_int,
	.col_text = pg_col_text,
	.col_blob = pg_col_blob,
	.changes = pg_changes,
	.begin = pg_begin,
	.commit = pg_commit,
	.rollback = pg_rollback,
	.fault = pg_fault,
	.errmsg = pg_errmsg,
	.migrate = pg_migrate,
	.schema_version = pg_schema_version,
	.check = pg_check,
	.whoami = pg_whoami,
	.watch_fd = pg_watch_fd,
	.poll_changed = pg_poll_changed,
	.connected = pg_connected,
	.reconnect = pg_reconnect,
	.password_verifier = pg_password_verifier,
	.send = pg_send,
};
