/* cmd.h — the subcommands of the one spieltisch binary. */
#ifndef SPIELTISCH_CMD_H
#define SPIELTISCH_CMD_H

/* Each returns the process exit status. argv[0] is the subcommand. */
int cmd_sim(int argc, char **argv);
int cmd_games(int argc, char **argv);
int cmd_serve(int argc, char **argv);

#endif
