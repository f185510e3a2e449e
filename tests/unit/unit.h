/* Common includes for the cmocka unit tests (one file per module). */
#ifndef SECTEAM_UNIT_H
#define SECTEAM_UNIT_H
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#endif
