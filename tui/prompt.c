/*
 * The `:` and `/` lines at the bottom of the screen: wide-character
 * editing (Left/Right, Home/End, Backspace, C-u, C-w), history with
 * Up/Down, and Tab completion of the first word from the command table
 * (read at run time, so verbs added to core appear by themselves) and the
 * UI's own verbs, and of an option's value from its command's row
 * (`triage --severity h` gives high).  Only printable characters the officer types are kept.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

#include "tui/tui-int.h"

#define PROMPT_MAX 1024

void history_free(struct tui_history *h)
{
	for (size_t i = 0; i < h->n; i++)
		free(h->line[i]);
	h->n = 0;
}

static void history_add(struct tui_history *h, const char *s)
{
	if (!*s || (h->n && !strcmp(h->line[h->n - 1], s)))
		return;
	if (h->n == TUI_HISTORY) {
		free(h->line[0]);
		memmove(h->line, h->line + 1,
			(TUI_HISTORY - 1) * sizeof(*h->line));
		h->n--;
	}
	h->line[h->n++] = xstrdup(s);
}

static char *to_utf8(const wchar_t *w, size_t n)
{
	struct sbuf sb = SBUF_INIT;
	char mb[MB_LEN_MAX];
	mbstate_t st;

	memset(&st, 0, sizeof(st));
	for (size_t i = 0; i < n; i++) {
		size_t k = wcrtomb(mb, w[i], &st);
		if (k != (size_t)-1)
			sbuf_add(&sb, mb, k);
	}
	return sb.buf ? sbuf_detach(&sb, NULL) : xstrdup("");
}

static size_t from_utf8(const char *s, wchar_t *w, size_t max)
{
	mbstate_t st;
	size_t n = 0;

	memset(&st, 0, sizeof(st));
	while (*s && n < max) {
		wchar_t wc;
		size_t k = mbrtowc(&wc, s, strlen(s), &st);
		if (k == 0 || k == (size_t)-1 || k == (size_t)-2)
			break;
		w[n++] = wc;
		s += k;
	}
	return n;
}

/* The verbs Tab completes, for the first word. */
static size_t candidates(const char *prefix, const char **out, size_t max)
{
	size_t n = 0, len = strlen(prefix);

	for (size_t i = 0; i < cmd_table_len && n < max; i++)
		if (!strncmp(cmd_table[i]->name, prefix, len))
			out[n++] = cmd_table[i]->name;
	for (size_t i = 0; i < tui_key_table_len && n < max; i++)
		/* A UI verb that is a command's name too (search) once. */
		if (tui_key_table[i].handler &&
		    !strncmp(tui_key_table[i].name, prefix, len) &&
		    !cmd_find(tui_key_table[i].name))
			out[n++] = tui_key_table[i].name;
	return n;
}

/* The values of an option, for a later word: the option is the word
 * before it, the verb the first word (its row's cmd_values.words). */
static size_t value_candidates(const char *line, const char *prev,
			       const char *prefix, const char **out, size_t max)
{
	char *verb = xstrndup(line, strcspn(line, " "));
	const char *const *words = cmd_option_words(cmd_find(verb), prev);
	size_t n = 0, len = strlen(prefix);

	free(verb);
	for (; words && *words && n < max; words++)
		if (!strncmp(*words, prefix, len))
			out[n++] = *words;
	return n;
}

/* The options of the line's command (those of its sub-command, when its
 * second word is one) whose names start with prefix, the word after its
 * "--" (the command's row: cmd_option_names). */
static size_t option_candidates(const char *line, const char *prefix,
				const char **out, size_t max)
{
	size_t vn = strcspn(line, " ");
	const char *rest = line + vn + strspn(line + vn, " ");
	char *verb = xstrndup(line, vn);
	char *second = xstrndup(rest, strcspn(rest, " "));
	const struct cmd_entry *e = cmd_find(verb);
	char *argv[] = { verb, second, NULL };
	size_t n = e
		? cmd_option_names(e, cmd_sub_of(e, 2, argv), prefix, out, max)
		: 0;

	free(second);
	free(verb);
	return n;
}

/* Tab: the word under the cursor completed, as far as its candidates
 * agree (a space after it when there is one): the verb for the first
 * word, an option's name ("--sev"), an option's value after the option
 * ("--severity h"). */
static void complete(struct tui *t, wchar_t *buf, size_t *len, size_t *cur)
{
	const char *cand[128];
	char *word, *line, *prev = NULL;
	size_t ws = *cur, pws, n, common;

	while (ws > 0 && buf[ws - 1] != L' ')
		ws--;
	word = to_utf8(buf + ws, *cur - ws);
	if (ws == 0) {
		n = candidates(word, cand, ARRAY_SIZE(cand));
	} else if (!strncmp(word, "--", 2)) {
		line = to_utf8(buf, *len);
		n = option_candidates(line, word + 2, cand, ARRAY_SIZE(cand));
		free(line);
		ws += 2; /* the names go after the "--" typed */
	} else {
		pws = ws - 1;
		while (pws > 0 && buf[pws - 1] == L' ')
			pws--;
		{
			size_t pe = pws;
			while (pws > 0 && buf[pws - 1] != L' ')
				pws--;
			prev = to_utf8(buf + pws, pe - pws);
		}
		line = to_utf8(buf, *len);
		n = value_candidates(line, prev, word, cand, ARRAY_SIZE(cand));
		free(line);
	}
	if (!n) {
		if (ws == 0)
			tui_status(t, true, "no command starts with '%s'",
				   word);
		else if (!strncmp(word, "--", 2))
			tui_status(t, true, "no option starts with '%s'", word);
		else if (prev && *prev == '-')
			tui_status(t, true, "no value of %s starts with '%s'",
				   prev, word);
		free(prev);
		free(word);
		return;
	}
	common = strlen(cand[0]);
	for (size_t i = 1; i < n; i++) {
		size_t k = 0;
		while (k < common && cand[i][k] == cand[0][k])
			k++;
		common = k;
	}
	{
		char *c = xasprintf("%.*s%s", (int)common, cand[0],
				    n == 1 ? " " : "");
		wchar_t wb[128];
		size_t wn = from_utf8(c, wb, ARRAY_SIZE(wb));
		size_t wlen = *cur - ws;
		if (*len - wlen + wn < PROMPT_MAX) {
			memmove(buf + ws + wn, buf + *cur,
				(*len - *cur) * sizeof(*buf));
			memcpy(buf + ws, wb, wn * sizeof(*buf));
			*len = *len - wlen + wn;
			*cur = ws + wn;
		}
		free(c);
	}
	if (n > 1) {
		struct sbuf sb = SBUF_INIT;
		for (size_t i = 0; i < n; i++)
			sbuf_addf(&sb, "%s%s", i ? " " : "", cand[i]);
		tui_status(t, false, "%s", sb.buf);
		sbuf_release(&sb);
	} else {
		tui_status_clear(t);
	}
	free(prev);
	free(word);
}

static void draw_prompt(struct tui *t, const char *prefix, const wchar_t *buf,
			size_t len, size_t cur)
{
	int y = LINES - 1, pw = text_width(prefix), avail = COLS - pw - 1;
	size_t start = 0;
	int curx = 0;
	char *s;

	/* Scroll so the cursor stays visible. */
	for (;;) {
		int w = 0;
		for (size_t i = start; i < cur; i++)
			w += wcwidth(buf[i]) > 0 ? wcwidth(buf[i]) : 1;
		if (w < avail || start >= cur) {
			curx = w;
			break;
		}
		start++;
	}
	if (t->status && *t->status) {
		/* Completion candidates or errors above the prompt line. */
		move(y - 1, 0);
		clrtoeol();
		draw_text(y - 1, 0, COLS, t->status,
			  t->status_error ? A_BOLD : A_DIM);
	}
	move(y, 0);
	clrtoeol();
	draw_text(y, 0, pw, prefix, A_BOLD);
	s = to_utf8(buf + start, len - start);
	draw_text(y, pw, avail, s, A_NORMAL);
	free(s);
	move(y, pw + curx);
	refresh();
}

char *prompt_read(struct tui *t, const char *prefix, const char *initial,
		  struct tui_history *h, bool complete_verbs)
{
	wchar_t buf[PROMPT_MAX];
	size_t len = from_utf8(initial, buf, PROMPT_MAX - 1), cur = len;
	size_t hi = h->n;
	char *res = NULL;

	tui_status_clear(t);
	curs_set(1);
	for (;;) {
		int k;
		draw_prompt(t, prefix, buf, len, cur);
		k = tui_getkey(t);
		if (k < 0 || k == 27 || k == 7) {
			break;
		} else if (k == '\n') {
			res = to_utf8(buf, len);
			history_add(h, res);
			break;
		} else if (k == 127 || k == TUI_KEY_FN(KEY_BACKSPACE)) {
			if (cur) {
				memmove(buf + cur - 1, buf + cur,
					(len - cur) * sizeof(*buf));
				cur--;
				len--;
			} else if (!len) {
				break; /* backspace on an empty line cancels, as in vi */
			}
		} else if (k == TUI_KEY_FN(KEY_DC) || k == 4) {
			if (cur < len) {
				memmove(buf + cur, buf + cur + 1,
					(len - cur - 1) * sizeof(*buf));
				len--;
			}
		} else if (k == 21) { /* C-u */
			memmove(buf, buf + cur, (len - cur) * sizeof(*buf));
			len -= cur;
			cur = 0;
		} else if (k == 23) { /* C-w */
			size_t s = cur;
			while (s && buf[s - 1] == L' ')
				s--;
			while (s && buf[s - 1] != L' ')
				s--;
			memmove(buf + s, buf + cur, (len - cur) * sizeof(*buf));
			len -= cur - s;
			cur = s;
		} else if (k == TUI_KEY_FN(KEY_LEFT) || k == 2) {
			if (cur)
				cur--;
		} else if (k == TUI_KEY_FN(KEY_RIGHT) || k == 6) {
			if (cur < len)
				cur++;
		} else if (k == TUI_KEY_FN(KEY_HOME) || k == 1) {
			cur = 0;
		} else if (k == TUI_KEY_FN(KEY_END) || k == 5) {
			cur = len;
		} else if (k == TUI_KEY_FN(KEY_UP) || k == 16) {
			if (hi) {
				hi--;
				cur = len = from_utf8(h->line[hi], buf,
						      PROMPT_MAX - 1);
			}
		} else if (k == TUI_KEY_FN(KEY_DOWN) || k == 14) {
			if (hi < h->n) {
				hi++;
				cur = len = hi < h->n
					? from_utf8(h->line[hi], buf,
						    PROMPT_MAX - 1)
					: 0;
			}
		} else if (k == '\t') {
			if (complete_verbs)
				complete(t, buf, &len, &cur);
		} else if (k == TUI_KEY_FN(KEY_RESIZE)) {
			/* the next draw uses the new size */
		} else if (k < TUI_KEY_FN(0) && iswprint((wint_t)k) &&
			   len < PROMPT_MAX - 1) {
			memmove(buf + cur + 1, buf + cur,
				(len - cur) * sizeof(*buf));
			buf[cur++] = (wchar_t)k;
			len++;
		}
	}
	curs_set(0);
	if (!res)
		tui_status_clear(t);
	return res;
}
