/*
 * fuzz-report-event: the report events' strict decoder
 * (crypto/reportevent.c) on arbitrary bytes.  A success must be
 * canonical: encoding what was decoded gives the input back, byte for
 * byte (one encoding per value); a failure must explain itself and leave
 * nothing allocated.
 *
 * sources: util crypto/reportevent.c
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/reportevent.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct report_event ev;
	struct err err = { 0, "" };
	unsigned char *again;
	size_t len;

	if (report_event_decode(data, size, &ev, &err) < 0) {
		if (!err.msg[0] || ev.files || ev.note || ev.event_kind ||
		    ev.state || ev.severity || ev.claimed)
			abort();
		return 0;
	}
	if (!report_event_kind_name(ev.kind))
		abort();
	if (report_event_encode(&ev, &again, &len, &err) < 0 || len != size ||
	    memcmp(again, data, size))
		abort();
	free(again);
	report_event_release(&ev);
	return 0;
}
