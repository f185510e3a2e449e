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
	unsigned nstmt; /* names prepared so far */
	enum db_fault fault;
	char *errmsg;
	bool listening;
	unsigned gen; /* connections so far, from 1: statements
				 * prepared on an earlier one are prepared
				 * again */
	bool catch_up; /* reconnected: what changed meanwhile was
				 * not notified */
	bool piped; /* in libpq's pipeline mode (pg_send) */
	int pending; /* statements sent whose results are unread */
	/* What each of them is (db_send's what; a prepare's own), in the
	 * order their results come, to name the one that failed. */
	const char *pending_what[PIPE_MAX + 2];
	unsigned long trips; /* waits on the server (store_round_trips) */
	bool tx; /* in a write transaction (pg_begin) */
	/* One of them failed: the transaction is lost, and every statement
	 * after it until the rollback fails with that error, not with the
	 * server's "current transaction is aborted" (a read whose failure
	 * its caller takes for "not found" must not hide it). */
	bool lost;
	const char *lost_what;
	enum db_fault lost_fault;
	char *lost_msg;
	/* The schema's version read at open, for the first
	 * pg_schema_version. */
	bool open_version_read;
	int open_version;
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
	char *query; /* in the server's dialect */
	unsigned gen; /* the connection it is prepared on (0: none) */
	unsigned ran_gen; /* the connection it last ran on unnamed */
	int row, nrows; /* the current row is row - 1 */
	unsigned char *blob; /* the last decoded bytea column */
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
 * A write transaction runs in libpq's pipeline mode from its BEGIN: the
 * statements whose results nothing reads (the BEGIN and the write lock,
 * savepoints, db_send's writes) are sent one after another without a
 * wait, and the next statement that must be answered (a read, the
 * commit) goes after them with the sync: one round trip for them all.
 * The lock is the point: a writer that has it waits on the server once
 * per read, and no longer between its statements for its own turn on a
 * busy machine's processor while every colleague waits behind it.  A
 * statement that fails fails the ones after it until the sync, with the
 * first error, named as that statement's own (pending_what); the
 * transaction is lost and the commit says so.
 */
static int pipe_enter(struct store *s)
{
	struct pg *p = PG(s);

	if (p->piped)
		return 0;
	if (pq.PQenterPipelineMode(p->conn) != 1) {
		note(s, NULL);
		return -1;
	}
	p->piped = true;
	return 0;
}

/*
 * Reads the results of everything sent since the pipeline began, up to
 * a sync sent now, and leaves pipeline mode.  With keep, the result of
 * the last statement sent (the caller's read or commit) is kept there
 * for the caller (NULL on failure).
 */
static int pipe_end_keep(struct store *s, PGresult **keep)
{
	struct pg *p = PG(s);
	int ret = 0, nulls = 0;
	bool synced = false;

	s->sent_failed = NULL;
	if (keep)
		*keep = NULL;
	if (!p->piped)
		return 0;
	p->trips++;
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
			if (keep && !*keep && nulls == p->pending - 1) {
				*keep = r;
				continue;
			}
			break;
		case PGRES_PIPELINE_ABORTED: /* after the error noted */
			break;
		default:
			note(s, r);
			/* The statement whose result this is: as many
			 * ended before it as NULLs were read. */
			if (nulls < p->pending)
				s->sent_failed = p->pending_what[nulls];
			if (s->sent_failed && !p->lost) {
				p->lost = true;
				p->lost_what = s->sent_failed;
				p->lost_fault = p->fault;
				p->lost_msg = xstrdup(p->errmsg);
			}
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
	if (ret < 0 && keep && *keep) {
		pq.PQclear(*keep);
		*keep = NULL;
	}
	return ret;
}

/* -1 with the error that lost the transaction (see struct pg's lost),
 * else 0. */
static int lost(struct store *s)
{
	struct pg *p = PG(s);

	if (!p->lost)
		return 0;
	set_fault(s, p->lost_fault, p->lost_msg);
	s->sent_failed = p->lost_what;
	return -1;
}

static void lost_clear(struct pg *p)
{
	p->lost = false;
	free(p->lost_msg);
	p->lost_msg = NULL;
}

static int pipe_end(struct store *s)
{
	return pipe_end_keep(s, NULL);
}

/* Room for one more statement in the pipeline, which is entered. */
static int pipe_room(struct store *s)
{
	/* Then a prepare and its statement may follow: PIPE_MAX + 2. */
	if (PG(s)->pending >= PIPE_MAX && pipe_end(s) < 0)
		return -1;
	return pipe_enter(s);
}

/* A statement without parameters sent in the pipeline (what names it
 * should it fail; NULL: the caller reads its result). */
static int pipe_sql(struct store *s, const char *sql, const char *what)
{
	struct pg *p = PG(s);

	if (lost(s) < 0 || pipe_room(s) < 0)
		return -1;
	if (pq.PQsendQueryParams(p->conn, sql, 0, NULL, NULL, NULL, NULL, 0) !=
	    1) {
		note(s, NULL);
		return -1;
	}
	p->pending_what[p->pending++] = what;
	return 0;
}

static int pg_exec(struct store *s, const char *sql)
{
	PGresult *r;
	int ret = 0;

	if (lost(s) < 0 || pipe_end(s) < 0)
		return -1;
	PG(s)->trips++;
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

	return xasprintf("team server '%s%s%s/%s'",
			 host && *host ? host : "local",
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
	const char *user = getenv("PGSERVICEFILE"),
		   *sys = getenv("PGSYSCONFDIR");
	const char *home = getenv("HOME");

	snprintf(buf, sizeof(buf),
		 " (looked up in '%s%s' and in '%s/pg_service.conf')",
		 user		? user
			 : home ? home
				: "~",
		 user ? "" : "/.pg_service.conf",
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

/*
 * The session's settings, as set_config() (SET takes no parameters): one
 * statement, so that pg_open can ask for the schema version in the same
 * one.  libpq learns the encoding from the server's answer.
 */
#define SESSION_SETTINGS                                            \
	"set_config('client_encoding', 'UTF8', false), "            \
	"set_config('search_path', 'secteam, pg_catalog', false), " \
	"set_config('application_name', 'secteam-tui', false), "    \
	"set_config('client_min_messages', 'warning', false), "     \
	"set_config('lock_timeout', $1, false)"

/* The settings and, with version, the schema's version into *found (see
 * pg_schema_version): one round trip.  -1 on failure, noted. */
static int session_query(struct store *s, bool version, int *found)
{
	char timeout[16];
	const char *param[1] = { timeout };
	PGresult *r;
	int ret = 0;

	snprintf(timeout, sizeof(timeout), "%d", s->busy_timeout_ms);
	PG(s)->trips++;
	r = pq.PQexecParams(PG(s)->conn,
			    version ? "SELECT " SESSION_SETTINGS ", (SELECT "
				      "coalesce(max(version), 0) FROM "
				      "secteam.schema_info)"
				    : "SELECT " SESSION_SETTINGS,
			    1, NULL, param, NULL, NULL, 0);
	if (pq.PQresultStatus(r) == PGRES_TUPLES_OK && pq.PQntuples(r) == 1) {
		if (version)
			*found = atoi(pq.PQgetvalue(r, 0, 5));
	} else {
		note(s, r);
		ret = -1;
	}
	pq.PQclear(r);
	return ret;
}

static int session_setup(struct store *s)
{
	return session_query(s, false, NULL);
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
		return err_setc(err, ERR_IO,
				"cannot reach the team server: out of memory");
	if (pq.PQstatus(p->conn) != CONNECTION_OK) {
		char *svc = service_of(where);
		msg = connect_error(pq.PQerrorMessage(p->conn));
		s->where = svc && strstr(msg, "service") ? service_where(svc)
							 : server_name(p->conn);
		r = err_setc(
			err, ERR_IO, "cannot reach the %s: %s%s", s->where, msg,
			svc && strstr(msg, "service") ? service_files() : "");
		free(svc);
		free(msg);
		return r;
	}
	s->where = server_name(p->conn);
	pq.PQsetNoticeReceiver(p->conn, pg_notice, NULL);
	/* With the schema's version, which store_open reads next.  Should
	 * that fail (a database without the schema before team init, or a
	 * role that may not read it), the settings go alone, and
	 * pg_schema_version asks again and says what it finds. */
	if (session_query(s, true, &p->open_version) == 0)
		p->open_version_read = true;
	else if (session_setup(s) < 0)
		return store_dberr(s, err, "cannot set up the session");
	return 0;
}

static unsigned long pg_round_trips(struct store *s)
{
	return PG(s)->trips;
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
			(strstr(m, "role \"") &&
			 strstr(m, "\" does not exist"));
		note(s, NULL);
		if (shut)
			p->fault = DB_FAULT_PERM;
		return -1;
	}
	p->gen++;
	p->listening = false;
	p->catch_up = true;
	p->piped = false;
	p->pending = 0;
	p->tx = false;
	lost_clear(p);
	return session_setup(s);
}

static char *pg_password_verifier(struct store *s, const char *role,
				  const char *password)
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
	free(p->lost_msg);
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
	p->trips++;
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

/* ps sent in the pipeline, prepared there first when it runs again
 * (what: as pipe_sql's). */
static int send_stmt(struct pg_stmt *ps, const char *what)
{
	struct store *s = ps->base.s;
	struct pg *p = PG(s);
	int sent;

	if (lost(s) < 0 || pipe_room(s) < 0)
		return -1;
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
	p->pending_what[p->pending++] = what;
	return 0;
}

static int pg_step(struct stmt *x)
{
	struct pg_stmt *ps = PST(x);
	struct store *s = x->s;

	if (!ps->res) {
		if (lost(s) < 0)
			return -1;
		/* In a write transaction: after what was sent before it, and
		 * read with their results, in one round trip. */
		if (PG(s)->piped) {
			if (send_stmt(ps, NULL) < 0 ||
			    pipe_end_keep(s, &ps->res) < 0)
				return -1;
		} else if (run_unnamed(ps)) {
			PG(s)->trips++;
			ps->res = pq.PQexecParams(
				PG(s)->conn, ps->query, ps->nparams, NULL,
				(const char *const *)ps->values, ps->lengths,
				ps->formats, 0);
		} else if (reprepare(ps) < 0) {
			return -1;
		} else {
			PG(s)->trips++;
			ps->res = pq.PQexecPrepared(
				PG(s)->conn, ps->name, ps->nparams,
				(const char *const *)ps->values, ps->lengths,
				ps->formats, 0);
		}
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

	if (send_stmt(ps, s->sending ? s->sending : "cannot write") < 0)
		return -1;
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

/* BEGIN and the write lock, sent: their answer comes with the first
 * read's (pipe_end_keep), so that the lock's holder does not wait for
 * its turn to send that read once the lock is granted.  A lock not had
 * in time fails that read as busy. */
static int pg_begin(struct store *s)
{
	PG(s)->tx = true;
	if (pipe_sql(s, "BEGIN", "cannot start a transaction") < 0 ||
	    pipe_sql(s, "SELECT pg_advisory_xact_lock(" PG_WRITE_LOCK ")",
		     "cannot take the team's write lock") < 0) {
		enum db_fault f = PG(s)->fault;
		char *m = xstrdup(PG(s)->errmsg);

		pipe_end(s);
		if (pq.PQtransactionStatus(PG(s)->conn) != PQTRANS_IDLE)
			pg_exec(s, "ROLLBACK");
		PG(s)->tx = false;
		set_fault(s, f, m);
		free(m);
		return -1;
	}
	return 0;
}

/* A statement without parameters whose result nothing reads (a
 * savepoint): sent in a write transaction's pipeline, else run. */
static int pg_send_sql(struct store *s, const char *sql, const char *what)
{
	if (!PG(s)->tx)
		return pg_exec(s, sql);
	return pipe_sql(s, sql, what);
}

/* COMMIT of a transaction that failed answers "ROLLBACK": that is a
 * failure, not a success.  After the statements still unanswered, in
 * the same round trip. */
static int pg_commit(struct store *s)
{
	PGresult *r = NULL;
	int ret = 0;

	PG(s)->tx = false;
	if (lost(s) < 0)
		return -1;
	if (PG(s)->piped) {
		if (pipe_sql(s, "COMMIT", NULL) < 0 || pipe_end_keep(s, &r) < 0)
			return -1;
	} else {
		PG(s)->trips++;
		r = pq.PQexec(PG(s)->conn, "COMMIT");
	}
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

	lost_clear(PG(s));
	PG(s)->tx = false;
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

	if (lost(s) < 0 || pipe_end(s) < 0)
		return NULL;
	PG(s)->trips++;
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
	PGresult *r;
	const char *code;
	int n = -1;

	/* Read with the session's settings at open (pg_open). */
	if (PG(s)->open_version_read) {
		PG(s)->open_version_read = false;
		return PG(s)->open_version;
	}
	PG(s)->trips++;
	r = pq.PQexec(
		PG(s)->conn,
		"SELECT coalesce(max(version), 0) FROM secteam.schema_info");
	code = pq.PQresultErrorField(r, PG_DIAG_SQLSTATE);

	if (pq.PQresultStatus(r) == PGRES_TUPLES_OK && pq.PQntuples(r) > 0)
		n = atoi(pq.PQgetvalue(r, 0, 0));
	else if (code && (!strcmp(code, "42P01") || !strcmp(code, "3F000")))
		n = 0; /* no such table, or no such schema */
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
		return err_setc(
			err, ERR_INVALID,
			"%s has schema version %d, newer than this secteam-tui (%zu); upgrade secteam-tui",
			s->where, v, n);
	if ((r = store_begin(s, err)) < 0)
		return r;
	for (size_t i = (size_t)v; i < n; i++) {
		char ver[96];

		snprintf(
			ver, sizeof(ver),
			"INSERT INTO secteam.schema_info (version) VALUES (%zu)",
			i + 1);
		if (pg_exec(s, schema_pg[i]) < 0 || pg_exec(s, ver) < 0) {
			if (PG(s)->fault == DB_FAULT_PERM)
				r = err_setc(
					err, ERR_REFUSED,
					"%s needs its schema upgraded to version %zu (%s); the team's administrator runs 'secteam-tui team init'",
					s->where, n, PG(s)->errmsg);
			else
				r = store_dberr(s, err,
						"cannot upgrade the schema");
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
	if (pg_exec(s,
		    "SELECT count(*) FROM reports, (SELECT count(*) FROM events) e") <
	    0)
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
	.send_sql = pg_send_sql,
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
	.round_trips = pg_round_trips,
	.password_verifier = pg_password_verifier,
	.send = pg_send,
};
