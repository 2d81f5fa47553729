/* cmd-lexicon.c — `spieltisch lexicon compile DIC OUT`: the build step that
 * runs libhyphen's slow loader once and writes its state machine to OUT
 * (cgi/hyphdict.h), which the server then maps at every start. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "hyphdict.h"

int cmd_lexicon(int argc, char **argv)
{
	if (argc != 4 || strcmp(argv[1], "compile") != 0) {
		fprintf(stderr, "usage: spieltisch lexicon compile DIC OUT\n");
		return 2;
	}
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	if (hyphdict_compile(argv[2], argv[3]) != 0) {
		fprintf(stderr, "lexicon: %s does not compile to %s\n", argv[2], argv[3]);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	fprintf(stderr, "lexicon: %s compiled to %s in %ld ms\n", argv[2], argv[3],
		(long)((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000));
	return 0;
}
