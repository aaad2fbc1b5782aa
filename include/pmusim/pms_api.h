/* pmusim — the export mark of the public API.
 *
 * libpmusim is built with -fvisibility=hidden: only the functions declared
 * with PMS_API in the headers of include/pmusim/ are in its dynamic symbol
 * table; module helpers (tokenizer, vector lexer, simulator devices) are not,
 * so no program can come to depend on them. */
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define PMS_API __attribute__((visibility("default")))
#else
#define PMS_API
#endif
