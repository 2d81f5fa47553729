/* cmd.h — the subcommands of the one spieltisch binary. */
#ifndef SPIELTISCH_CMD_H
#define SPIELTISCH_CMD_H

/* Each returns the process exit status. argv[0] is the subcommand. */
int cmd_sim(int argc, char **argv);
int cmd_games(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_perft(int argc, char **argv);
int cmd_verbs(int argc, char **argv);
int cmd_bots(int argc, char **argv);
int cmd_mail(int argc, char **argv);
int cmd_lexicon(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_migrate(int argc, char **argv);

struct game;
struct rerr;
/* A whole number in [min, max] from s into *out: 0, or -1. */
int cmd_read_long(const char *s, long min, long max, long *out);
/* One `--opt KEY=VALUE` into opt (indexed like g->options): 0, or -1 with e. */
int cmd_set_opt(const struct game *g, int *opt, const char *kv, struct rerr *e);

#endif
