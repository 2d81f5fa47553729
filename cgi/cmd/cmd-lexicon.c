/* cmd-lexicon.c — `spieltisch lexicon hyph DIC OUT` and `lexicon words LIST
 * OUT`: the build steps that run libhyphen's slow loader once and write its
 * state machine to OUT, and fold and sort the word list once
 * (cgi/lexfile.h); the server then maps them at every start. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "lexfile.h"
#include "lexicon.h"

int cmd_lexicon(int argc, char **argv)
{
	int hyph = argc == 4 && strcmp(argv[1], "hyph") == 0;
	if (argc != 4 || (!hyph && strcmp(argv[1], "words") != 0)) {
		fprintf(stderr, "usage: spieltisch lexicon hyph DIC OUT | lexicon words LIST OUT\n");
		return 2;
	}
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	if ((hyph ? lexfile_hyph_compile(argv[2], argv[3])
		  : lexicon_compile_words(argv[2], argv[3])) != 0) {
		fprintf(stderr, "lexicon: %s does not compile to %s\n", argv[2], argv[3]);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	fprintf(stderr, "lexicon: %s compiled to %s in %ld ms\n", argv[2], argv[3],
		(long)((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000));
	return 0;
}
