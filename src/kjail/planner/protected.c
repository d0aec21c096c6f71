/* SPDX-License-Identifier: MIT */
/* The protected paths (protected.h): one row each. */
#include "config.h"
#include "planner/protected.h"
#include "util.h"

#include <stddef.h>

#define ROW(p, w, k, y) { .pattern = (p), .where = (w), .kind = (k), .why = (y) }
#define ROOT WHERE_EVERY_ROOT
#define HOME WHERE_HOME
#define XDG WHERE_XDG_CONFIG
#define XDGD WHERE_XDG_DATA

/* Each of these changes what runs later, outside the jail, when the user
 * next works in the directory: a hook, a git config (core.hooksPath,
 * core.fsmonitor), a worktree's gitdir pointer, a submodule URL, a direnv
 * script, an editor task that runs on folder open. */
const struct protected_rule protected_rules[] = {
	ROW(".git/hooks", ROOT, PROTECT_CREATE_DIR, "git hooks"),
	ROW(".git/config", ROOT, PROTECT_RESERVE, "git config"),
	/* git takes its config and hooks from the directory this names */
	ROW(".git/commondir", ROOT, PROTECT_RESERVE, "git common directory link"),
	ROW(".git", ROOT, PROTECT_IF_FILE, "git worktree link"),
	/* other repositories whose objects git reads as its own (git gc
	 * outside then copies them in: what a masked repository holds would
	 * reach the next jail) */
	ROW(".git/objects/info/alternates", ROOT, PROTECT_RESERVE, "git object store link"),
	/* not tracked, so not in git status or a diff: the filters and diff
	 * drivers git runs on which files */
	ROW(".git/info/attributes", ROOT, PROTECT_RESERVE, "git attributes"),
	/* what git status leaves out: a line there hides a file the jail
	 * made from the review after the run */
	ROW(".git/info/exclude", ROOT, PROTECT_RESERVE, "git excludes"),
	ROW(".gitmodules", ROOT, PROTECT_RESERVE, "git submodules"),
	ROW(".envrc", ROOT, PROTECT_RESERVE, "direnv script"),
	ROW(".vscode", ROOT, PROTECT_RESERVE, "editor config"),
	ROW(".idea", ROOT, PROTECT_RESERVE, "editor config"),
	/* coding agents' project settings: their hooks and MCP servers are
	 * commands the agent runs, outside the jail, the next time it starts in
	 * the directory (.claude/settings.json hooks, .mcp.json, Cursor's and
	 * Gemini CLI's mcp servers) */
	ROW(".claude", ROOT, PROTECT_RESERVE, "coding agent config"),
	ROW(".mcp.json", ROOT, PROTECT_RESERVE, "coding agent config"),
	ROW(".cursor", ROOT, PROTECT_RESERVE, "coding agent config"),
	ROW(".gemini", ROOT, PROTECT_RESERVE, "coding agent config"),
	/* initializeCommand runs on the host when the folder is opened */
	ROW(".devcontainer", ROOT, PROTECT_RESERVE, "dev container config"),
	/* the hooks pre-commit installs in .git/hooks run what this names */
	ROW(".pre-commit-config.yaml", ROOT, PROTECT_RESERVE, "git hook config"),
	/* so do lefthook's (its config in any format it reads at the top, and
	 * its script directories) and husky's (the scripts its hooks call);
	 * its .config/ ones are below, with mise's */
	ROW("lefthook.yml", ROOT, PROTECT_RESERVE, "git hook config"),
	ROW(".lefthook.yml", ROOT, PROTECT_RESERVE, "git hook config"),
	ROW("lefthook.yaml", ROOT, PROTECT_RESERVE, "git hook config"),
	ROW(".lefthook.yaml", ROOT, PROTECT_RESERVE, "git hook config"),
	ROW("lefthook.toml", ROOT, PROTECT_RESERVE, "git hook config"),
	ROW(".lefthook.toml", ROOT, PROTECT_RESERVE, "git hook config"),
	ROW("lefthook.json", ROOT, PROTECT_RESERVE, "git hook config"),
	ROW(".lefthook.json", ROOT, PROTECT_RESERVE, "git hook config"),
	ROW("lefthook.jsonc", ROOT, PROTECT_RESERVE, "git hook config"),
	ROW(".lefthook.jsonc", ROOT, PROTECT_RESERVE, "git hook config"),
	ROW("lefthook-local.yml", ROOT, PROTECT_RESERVE, "git hook config"),
	ROW(".lefthook-local.yml", ROOT, PROTECT_RESERVE, "git hook config"),
	ROW("lefthook-local.yaml", ROOT, PROTECT_RESERVE, "git hook config"),
	ROW(".lefthook-local.yaml", ROOT, PROTECT_RESERVE, "git hook config"),
	ROW("lefthook-local.toml", ROOT, PROTECT_RESERVE, "git hook config"),
	ROW(".lefthook-local.toml", ROOT, PROTECT_RESERVE, "git hook config"),
	ROW("lefthook-local.json", ROOT, PROTECT_RESERVE, "git hook config"),
	ROW(".lefthook-local.json", ROOT, PROTECT_RESERVE, "git hook config"),
	ROW("lefthook-local.jsonc", ROOT, PROTECT_RESERVE, "git hook config"),
	ROW(".lefthook-local.jsonc", ROOT, PROTECT_RESERVE, "git hook config"),
	ROW(".lefthook", ROOT, PROTECT_RESERVE, "git hook scripts"),
	ROW(".lefthook-local", ROOT, PROTECT_RESERVE, "git hook scripts"),
	ROW(".husky", ROOT, PROTECT_RESERVE, "git hook scripts"),
	/* more coding agents: aider's lint and test commands (run after each
	 * edit), Continue's, Zed's and OpenCode's MCP and language servers */
	ROW(".aider.conf.yml", ROOT, PROTECT_RESERVE, "coding agent config"),
	ROW(".continue", ROOT, PROTECT_RESERVE, "coding agent config"),
	ROW(".zed", ROOT, PROTECT_RESERVE, "coding agent config"),
	ROW("opencode.json", ROOT, PROTECT_RESERVE, "coding agent config"),
	ROW("opencode.jsonc", ROOT, PROTECT_RESERVE, "coding agent config"),
	ROW(".opencode", ROOT, PROTECT_RESERVE, "coding agent config"),
	/* mise trusts a project config by its path (unless in paranoid mode):
	 * a trusted one the jail edits runs its hooks and env scripts at the
	 * user's next prompt there. Its nested configs, like lefthook's under
	 * .config/, only when there: an absent one would pin its directory on
	 * macOS (and mise asks before it trusts a config it never saw). */
	ROW("mise.toml", ROOT, PROTECT_RESERVE, "tool manager config"),
	ROW(".mise.toml", ROOT, PROTECT_RESERVE, "tool manager config"),
	ROW("mise.local.toml", ROOT, PROTECT_RESERVE, "tool manager config"),
	ROW(".mise.local.toml", ROOT, PROTECT_RESERVE, "tool manager config"),
	ROW(".mise", ROOT, PROTECT_RESERVE, "tool manager config"),
	ROW("mise/config.toml", ROOT, PROTECT_IF_PRESENT, "tool manager config"),
	ROW("mise/config.local.toml", ROOT, PROTECT_IF_PRESENT, "tool manager config"),
	ROW(".config/mise.toml", ROOT, PROTECT_IF_PRESENT, "tool manager config"),
	ROW(".config/mise.local.toml", ROOT, PROTECT_IF_PRESENT, "tool manager config"),
	ROW(".config/mise", ROOT, PROTECT_IF_PRESENT, "tool manager config"),
	ROW(".config/lefthook.yml", ROOT, PROTECT_IF_PRESENT, "git hook config"),
	ROW(".config/lefthook.yaml", ROOT, PROTECT_IF_PRESENT, "git hook config"),
	ROW(".config/lefthook.toml", ROOT, PROTECT_IF_PRESENT, "git hook config"),
	ROW(".config/lefthook.json", ROOT, PROTECT_IF_PRESENT, "git hook config"),
	ROW(".config/lefthook.jsonc", ROOT, PROTECT_IF_PRESENT, "git hook config"),
	ROW(".config/lefthook-local.yml", ROOT, PROTECT_IF_PRESENT, "git hook config"),
	ROW(".config/lefthook-local.yaml", ROOT, PROTECT_IF_PRESENT, "git hook config"),
	ROW(".config/lefthook-local.toml", ROOT, PROTECT_IF_PRESENT, "git hook config"),
	ROW(".config/lefthook-local.json", ROOT, PROTECT_IF_PRESENT, "git hook config"),
	ROW(".config/lefthook-local.jsonc", ROOT, PROTECT_IF_PRESENT, "git hook config"),
	/* editors that start what the project says when opened there: Helix's
	 * language servers (.helix/languages.toml), Vim's exrc files (Neovim
	 * asks before it runs a changed one) */
	ROW(".helix", ROOT, PROTECT_RESERVE, "editor config"),
	ROW(".vimrc", ROOT, PROTECT_RESERVE, "editor startup file"),
	ROW(".exrc", ROOT, PROTECT_RESERVE, "editor startup file"),

	/* git reads config.worktree only under extensions.worktreeConfig, and
	 * then while the jail runs too (an editor's git status): an absent one
	 * is made empty and pinned; otherwise one the jail makes is renamed
	 * aside after the run, before git outside could be told to read it
	 * (git sparse-checkout init does) */
	ROW(".git/config.worktree", WHERE_GIT_REPO, PROTECT_MAKE_FILE, "git config"),
	/* A submodule's repository lives under .git/modules (a name with
	 * slashes nests), with hooks and a config of its own that git runs and
	 * reads when the user works in the superproject (`git status` runs its
	 * core.fsmonitor, `git submodule update` its hooks) */
	ROW("hooks", WHERE_SUBMODULE, PROTECT_CREATE_DIR, "git hooks of a submodule"),
	ROW("config", WHERE_SUBMODULE, PROTECT_RESERVE, "git config of a submodule"),
	ROW("config.worktree", WHERE_SUBMODULE, PROTECT_MAKE_FILE, "git config of a submodule"),
	ROW("commondir", WHERE_SUBMODULE, PROTECT_RESERVE, "git common directory link of a submodule"),
	/* a linked worktree's own config (read under extensions.worktreeConfig)
	 * and the link to the common directory its config and hooks come from
	 * (git worktree add always makes it) */
	ROW("config.worktree", WHERE_WORKTREE, PROTECT_MAKE_FILE, "git config of a worktree"),
	ROW("commondir", WHERE_WORKTREE, PROTECT_RESERVE, "git common directory link of a worktree"),
	/* where the worktree's .git file is: git worktree prune and repair
	 * outside act on what it names */
	ROW("gitdir", WHERE_WORKTREE, PROTECT_RESERVE, "git worktree's link back"),
	/* what git config names: hooks from another directory, more config
	 * files (a repository's shared config kept in its work tree, whose
	 * core.fsmonitor git then runs), the programs git runs on its own
	 * (git/reader.h lists them) */
	{ .pattern = "core.hooksPath", .where = WHERE_GIT_SETTING, .kind = PROTECT_RESERVE,
	  .why = "git hooks (core.hooksPath)", .git = GIT_HOOKS_PATH },
	{ .pattern = "init.templateDir", .where = WHERE_GIT_SETTING, .kind = PROTECT_RESERVE,
	  .why = "git hooks for new clones (init.templateDir)", .git = GIT_TEMPLATE_DIR },
	/* and includeIf.COND.path, whatever the condition */
	{ .pattern = "include.path", .where = WHERE_GIT_SETTING, .kind = PROTECT_RESERVE,
	  .why = "git config included by another", .git = GIT_INCLUDE },
	/* the row of every program setting git/reader.h lists (filters, diff
	 * and merge drivers, credential helpers, ...): --explain names the
	 * setting after the reason */
	{ .pattern = "core.fsmonitor", .where = WHERE_GIT_SETTING, .kind = PROTECT_RESERVE,
	  .why = "program git runs", .git = GIT_PROGRAM },
	/* the user's and the system's git config themselves, where a writable
	 * root holds them ($GIT_CONFIG_GLOBAL in a dotfiles workspace,
	 * ~/.gitconfig a symlink into one), repository or not: git reads them
	 * in every repository, so a core.fsmonitor planted there runs at the
	 * user's next git command anywhere. In the order git reads them. */
	ROW("$GIT_CONFIG_GLOBAL", WHERE_GIT_CONFIG_FILE, PROTECT_RESERVE,
	    "git config read in every repository"),
	ROW("$XDG_CONFIG_HOME/git/config", WHERE_GIT_CONFIG_FILE, PROTECT_RESERVE,
	    "git config read in every repository"),
	ROW("~/.gitconfig", WHERE_GIT_CONFIG_FILE, PROTECT_RESERVE,
	    "git config read in every repository"),
	ROW("$GIT_CONFIG_SYSTEM", WHERE_GIT_CONFIG_FILE, PROTECT_RESERVE,
	    "git config read in every repository"),
	ROW("/etc/gitconfig", WHERE_GIT_CONFIG_FILE, PROTECT_RESERVE,
	    "git config read in every repository"),
	/* kjail's and kli's own configuration: a jail that edits it loosens
	 * the next jail */
	{ .pattern = "kjail", .where = WHERE_CONFIG_DIRS, .kind = PROTECT_CREATE_DIR,
	  .why = "kjail and kli configuration", .system_file = KJ_SYSTEM_CONFIG },
	{ .pattern = "kli", .where = WHERE_CONFIG_DIRS, .kind = PROTECT_CREATE_DIR,
	  .why = "kjail and kli configuration", .system_file = KLI_SYSTEM_CONFIG },

	/* Relative to the home directory, when a writable root holds it */
	ROW(".bashrc", HOME, PROTECT_RESERVE, "shell startup file"),
	ROW(".bash_profile", HOME, PROTECT_RESERVE, "shell startup file"),
	ROW(".bash_login", HOME, PROTECT_RESERVE, "shell startup file"),
	ROW(".bash_logout", HOME, PROTECT_RESERVE, "shell startup file"),
	ROW(".profile", HOME, PROTECT_RESERVE, "shell startup file"),
	ROW(".zshrc", HOME, PROTECT_RESERVE, "shell startup file"),
	ROW(".zshenv", HOME, PROTECT_RESERVE, "shell startup file"),
	ROW(".zprofile", HOME, PROTECT_RESERVE, "shell startup file"),
	ROW(".zlogin", HOME, PROTECT_RESERVE, "shell startup file"),
	ROW(".zlogout", HOME, PROTECT_RESERVE, "shell startup file"),
	/* csh and tcsh (.login and .logout at a login shell's start and
	 * end), ksh and mksh (as $ENV when unset) */
	ROW(".cshrc", HOME, PROTECT_RESERVE, "shell startup file"),
	ROW(".tcshrc", HOME, PROTECT_RESERVE, "shell startup file"),
	ROW(".login", HOME, PROTECT_RESERVE, "shell startup file"),
	ROW(".logout", HOME, PROTECT_RESERVE, "shell startup file"),
	ROW(".kshrc", HOME, PROTECT_RESERVE, "shell startup file"),
	ROW(".mkshrc", HOME, PROTECT_RESERVE, "shell startup file"),
	ROW(".config/fish", HOME | XDG, PROTECT_RESERVE, "shell startup file"),
	ROW(".bash_aliases", HOME, PROTECT_RESERVE, "shell startup file"), /* Debian's .bashrc sources it */
	ROW(".bashrc.d", HOME, PROTECT_RESERVE, "shell startup file"),    /* Fedora's sources each */
	ROW(".config/zsh", HOME | XDG, PROTECT_RESERVE, "shell startup file"),  /* a common ZDOTDIR */
	ROW(".oh-my-zsh", HOME, PROTECT_RESERVE, "shell startup file"),   /* custom/ is sourced */
	ROW(".config/nushell", HOME | XDG, PROTECT_RESERVE, "shell startup file"),
	ROW(".config/starship.toml", HOME | XDG, PROTECT_RESERVE, "shell prompt config"), /* runs commands */
	ROW(".gitconfig", HOME, PROTECT_RESERVE, "git config"),
	ROW(".config/git", HOME | XDG, PROTECT_RESERVE, "git config"),
	ROW(".ssh", HOME, PROTECT_RESERVE, "ssh config"),
	/* the session: what starts at the next login */
	ROW(".config/systemd", HOME | XDG, PROTECT_RESERVE, "user services"),
	ROW(".local/share/systemd", HOME | XDGD, PROTECT_RESERVE, "user services"),
	/* D-Bus starts a session service's Exec= when something asks for
	 * its name; a desktop entry's Exec= runs when the user opens the
	 * application or a file of its type (one here overrides the system's
	 * of the same name); GNOME Shell runs its extensions at login */
	ROW(".local/share/dbus-1", HOME | XDGD, PROTECT_RESERVE, "session services"),
	ROW(".local/share/applications", HOME | XDGD, PROTECT_RESERVE, "desktop entries"),
	ROW(".local/share/gnome-shell", HOME | XDGD, PROTECT_RESERVE, "session extensions"),
	ROW(".config/autostart", HOME | XDG, PROTECT_RESERVE, "session autostart"),
	ROW(".config/environment.d", HOME | XDG, PROTECT_RESERVE, "session environment"),
	ROW(".pam_environment", HOME, PROTECT_RESERVE, "session environment"),
	ROW(".xprofile", HOME, PROTECT_RESERVE, "session startup file"),
	ROW(".xsessionrc", HOME, PROTECT_RESERVE, "session startup file"),
	ROW(".xinitrc", HOME, PROTECT_RESERVE, "session startup file"),
	ROW(".xsession", HOME, PROTECT_RESERVE, "session startup file"),
	ROW(".config/plasma-workspace", HOME | XDG, PROTECT_RESERVE, "session startup file"), /* env scripts */
	ROW(".Xclients", HOME, PROTECT_RESERVE, "session startup file"), /* Fedora's xinit */
	ROW(".config/lxsession", HOME | XDG, PROTECT_RESERVE, "session autostart"),
	ROW(".config/xfce4/xinitrc", HOME | XDG, PROTECT_RESERVE, "session startup file"),
	/* window managers and compositors: their configs start programs
	 * (exec, autostart, spawn-at-startup), some are programs themselves
	 * (bspwmrc, river's init, awesome's and qtile's, xmonad's) */
	ROW(".config/i3", HOME | XDG, PROTECT_RESERVE, "window manager config"),
	ROW(".i3", HOME, PROTECT_RESERVE, "window manager config"),
	ROW(".config/sway", HOME | XDG, PROTECT_RESERVE, "window manager config"),
	ROW(".config/hypr", HOME | XDG, PROTECT_RESERVE, "window manager config"),
	ROW(".config/niri", HOME | XDG, PROTECT_RESERVE, "window manager config"),
	ROW(".config/river", HOME | XDG, PROTECT_RESERVE, "window manager config"),
	ROW(".config/labwc", HOME | XDG, PROTECT_RESERVE, "window manager config"),
	ROW(".config/openbox", HOME | XDG, PROTECT_RESERVE, "window manager config"),
	ROW(".config/awesome", HOME | XDG, PROTECT_RESERVE, "window manager config"),
	ROW(".config/qtile", HOME | XDG, PROTECT_RESERVE, "window manager config"),
	ROW(".config/bspwm", HOME | XDG, PROTECT_RESERVE, "window manager config"),
	ROW(".config/sxhkd", HOME | XDG, PROTECT_RESERVE, "window manager config"),
	ROW(".config/xmonad", HOME | XDG, PROTECT_RESERVE, "window manager config"),
	ROW(".xmonad", HOME, PROTECT_RESERVE, "window manager config"),
	/* terminals: the shell or command they start, Lua configs */
	ROW(".config/kitty", HOME | XDG, PROTECT_RESERVE, "terminal config"),
	ROW(".config/alacritty", HOME | XDG, PROTECT_RESERVE, "terminal config"),
	ROW(".alacritty.toml", HOME, PROTECT_RESERVE, "terminal config"),
	ROW(".alacritty.yml", HOME, PROTECT_RESERVE, "terminal config"),
	ROW(".config/wezterm", HOME | XDG, PROTECT_RESERVE, "terminal config"),
	ROW(".wezterm.lua", HOME, PROTECT_RESERVE, "terminal config"),
	ROW(".config/ghostty", HOME | XDG, PROTECT_RESERVE, "terminal config"),
	/* on PATH (Debian's .profile adds the first two when they exist):
	 * a program put there runs instead of the system's */
	ROW(".local/bin", HOME, PROTECT_RESERVE, "directory on PATH"),
	ROW("bin", HOME, PROTECT_RESERVE, "directory on PATH"),
	ROW(".cargo/bin", HOME, PROTECT_RESERVE, "directory on PATH"),
	ROW("go/bin", HOME, PROTECT_RESERVE, "directory on PATH"),
	ROW(".bun/bin", HOME, PROTECT_RESERVE, "directory on PATH"),
	ROW(".deno", HOME, PROTECT_RESERVE, "directory on PATH"), /* bin/ and env */
	ROW(".volta/bin", HOME, PROTECT_RESERVE, "directory on PATH"),
	ROW(".local/share/pnpm", HOME | XDGD, PROTECT_RESERVE, "directory on PATH"),
	/* what the installers have the shell startup files source (rustup's
	 * .cargo/env, nvm.sh, fzf's key bindings) or put first on PATH
	 * (pyenv's, rbenv's and asdf's shims, SDKMAN's candidates) */
	ROW(".cargo/env", HOME, PROTECT_RESERVE, "shell startup file"),
	ROW(".nvm", HOME, PROTECT_RESERVE, "shell startup file"),
	ROW(".pyenv", HOME, PROTECT_RESERVE, "shell startup file"),
	ROW(".rbenv", HOME, PROTECT_RESERVE, "shell startup file"),
	ROW(".asdf", HOME, PROTECT_RESERVE, "shell startup file"),
	ROW(".sdkman", HOME, PROTECT_RESERVE, "shell startup file"),
	ROW(".fzf.bash", HOME, PROTECT_RESERVE, "shell startup file"),
	ROW(".fzf.zsh", HOME, PROTECT_RESERVE, "shell startup file"),
	/* editors and the terminal multiplexer run commands from these */
	ROW(".vimrc", HOME, PROTECT_RESERVE, "editor startup file"),
	/* Vim's plugin, pack, autoload, ftplugin and after directories */
	ROW(".vim", HOME, PROTECT_RESERVE, "editor startup file"),
	ROW(".config/vim", HOME | XDG, PROTECT_RESERVE, "editor startup file"),
	ROW(".gvimrc", HOME, PROTECT_RESERVE, "editor startup file"),
	ROW(".exrc", HOME, PROTECT_RESERVE, "editor startup file"),
	ROW(".config/nvim", HOME | XDG, PROTECT_RESERVE, "editor startup file"),
	/* Neovim's site/ and its plugin managers' plugins, the language
	 * servers Mason installs */
	ROW(".local/share/nvim", HOME | XDGD, PROTECT_RESERVE, "editor plugins"),
	ROW(".emacs", HOME, PROTECT_RESERVE, "editor startup file"),
	ROW(".emacs.el", HOME, PROTECT_RESERVE, "editor startup file"),
	ROW(".emacs.elc", HOME, PROTECT_RESERVE, "editor startup file"),
	ROW(".emacs.d", HOME, PROTECT_RESERVE, "editor startup file"),
	ROW(".config/emacs", HOME | XDG, PROTECT_RESERVE, "editor startup file"),
	ROW(".spacemacs", HOME, PROTECT_RESERVE, "editor startup file"),
	ROW(".doom.d", HOME, PROTECT_RESERVE, "editor startup file"),
	ROW(".config/doom", HOME | XDG, PROTECT_RESERVE, "editor startup file"),
	ROW(".config/kak", HOME | XDG, PROTECT_RESERVE, "editor startup file"),
	ROW(".config/micro", HOME | XDG, PROTECT_RESERVE, "editor startup file"),
	ROW(".screenrc", HOME, PROTECT_RESERVE, "terminal multiplexer startup file"),
	ROW(".tmux.conf", HOME, PROTECT_RESERVE, "tmux startup file"),
	ROW(".config/tmux", HOME | XDG, PROTECT_RESERVE, "tmux startup file"),
	/* what every build or session of a tool runs: cargo's rustc-wrapper,
	 * Gradle's init scripts, IPython's startup files, Jupyter's config */
	ROW(".cargo/config.toml", HOME, PROTECT_RESERVE, "build tool config"),
	ROW(".cargo/config", HOME, PROTECT_RESERVE, "build tool config"),
	ROW(".gradle/init.d", HOME, PROTECT_RESERVE, "build tool config"),
	ROW(".gradle/init.gradle", HOME, PROTECT_RESERVE, "build tool config"),
	ROW(".gradle/init.gradle.kts", HOME, PROTECT_RESERVE, "build tool config"),
	/* org.gradle.jvmargs: a -javaagent in every build; npm's and yarn's
	 * node-options, script-shell and yarnPath, bun's preload: code in
	 * every run of a package script */
	ROW(".gradle/gradle.properties", HOME, PROTECT_RESERVE, "build tool config"),
	ROW(".npmrc", HOME, PROTECT_RESERVE, "package manager config"),
	ROW(".yarnrc", HOME, PROTECT_RESERVE, "package manager config"),
	ROW(".yarnrc.yml", HOME, PROTECT_RESERVE, "package manager config"),
	ROW(".bunfig.toml", HOME, PROTECT_RESERVE, "package manager config"),
	ROW(".ipython", HOME, PROTECT_RESERVE, "interpreter startup file"),
	ROW(".jupyter", HOME, PROTECT_RESERVE, "interpreter startup file"),
	/* coding agents' and editors' global settings: hooks, MCP and
	 * language servers they start outside the jail */
	/* the whole directory: settings, hooks and the scripts they name,
	 * plugins, MCP servers, commands, agents, instructions; and within
	 * it the settings files, which stay protected when the directory
	 * itself is the writable root (-w ~/.claude: the agent keeps its
	 * state there) */
	ROW(".claude", HOME, PROTECT_RESERVE, "coding agent config"),
	ROW(".claude/settings.json", HOME, PROTECT_RESERVE, "coding agent config"),
	ROW(".claude.json", HOME, PROTECT_RESERVE, "coding agent config"), /* user MCP servers */
	ROW(".codex", HOME, PROTECT_RESERVE, "coding agent config"),
	ROW(".codex/config.toml", HOME, PROTECT_RESERVE, "coding agent config"),
	ROW(".gemini", HOME, PROTECT_RESERVE, "coding agent config"),
	ROW(".gemini/settings.json", HOME, PROTECT_RESERVE, "coding agent config"),
	ROW(".qwen", HOME, PROTECT_RESERVE, "coding agent config"),
	ROW(".qwen/settings.json", HOME, PROTECT_RESERVE, "coding agent config"),
	ROW(".copilot", HOME, PROTECT_RESERVE, "coding agent config"),
	ROW(".copilot/mcp-config.json", HOME, PROTECT_RESERVE, "coding agent config"),
	ROW(".cursor", HOME, PROTECT_RESERVE, "coding agent config"),
	ROW(".cursor/mcp.json", HOME, PROTECT_RESERVE, "coding agent config"),
	ROW(".codeium/windsurf", HOME, PROTECT_RESERVE, "coding agent config"),
	ROW(".continue", HOME, PROTECT_RESERVE, "coding agent config"),
	ROW(".continue/config.yaml", HOME, PROTECT_RESERVE, "coding agent config"),
	ROW(".continue/config.json", HOME, PROTECT_RESERVE, "coding agent config"),
	ROW(".aider.conf.yml", HOME, PROTECT_RESERVE, "coding agent config"),
	ROW(".config/opencode", HOME | XDG, PROTECT_RESERVE, "coding agent config"),
	ROW(".config/goose", HOME | XDG, PROTECT_RESERVE, "coding agent config"),
	ROW(".config/zed", HOME | XDG, PROTECT_RESERVE, "editor config"),
	ROW(".config/helix", HOME | XDG, PROTECT_RESERVE, "editor config"),
	ROW(".config/Code/User", HOME | XDG, PROTECT_RESERVE, "editor config"), /* tasks, terminal profiles */
	ROW(".config/VSCodium/User", HOME | XDG, PROTECT_RESERVE, "editor config"),
	ROW(".config/Cursor/User", HOME | XDG, PROTECT_RESERVE, "editor config"),
	/* the extensions VS Code and its forks run at their next start, and
	 * the remote server with its own */
	ROW(".vscode", HOME, PROTECT_RESERVE, "editor extensions"),
	ROW(".vscode-oss", HOME, PROTECT_RESERVE, "editor extensions"),
	ROW(".vscode-server", HOME, PROTECT_RESERVE, "editor extensions"),
	/* what a shell, an interpreter or a debugger loads on its own: Python
	 * runs the .pth files of the user's site-packages (.local/lib/pythonX.Y)
	 * at every start; bash-completion sources these in every interactive
	 * shell; direnv sources direnvrc and trusts what direnv.toml lists;
	 * gdb runs its init files */
	ROW(".local/lib", HOME, PROTECT_RESERVE, "interpreter's user packages"),
	ROW(".bash_completion", HOME, PROTECT_RESERVE, "shell startup file"),
	ROW(".local/share/bash-completion", HOME | XDGD, PROTECT_RESERVE, "shell startup file"),
	ROW(".config/direnv", HOME | XDG, PROTECT_RESERVE, "shell startup file"),
	ROW(".gdbinit", HOME, PROTECT_RESERVE, "debugger startup file"),
	ROW(".config/gdb", HOME | XDG, PROTECT_RESERVE, "debugger startup file"),
	ROW(".gdbearlyinit", HOME, PROTECT_RESERVE, "debugger startup file"),
	ROW(".lldbinit", HOME, PROTECT_RESERVE, "debugger startup file"),
	/* database clients' and interpreters' startup files: psql's \!,
	 * sqlite's .shell, mycli's and pgcli's pager, Ruby, R, Octave, Julia
	 * and GHCi code */
	ROW(".psqlrc", HOME, PROTECT_RESERVE, "database client startup file"),
	ROW(".sqliterc", HOME, PROTECT_RESERVE, "database client startup file"),
	ROW(".myclirc", HOME, PROTECT_RESERVE, "database client startup file"),
	ROW(".config/pgcli", HOME | XDG, PROTECT_RESERVE, "database client startup file"),
	ROW(".irbrc", HOME, PROTECT_RESERVE, "interpreter startup file"),
	ROW(".config/irb", HOME | XDG, PROTECT_RESERVE, "interpreter startup file"),
	ROW(".pryrc", HOME, PROTECT_RESERVE, "interpreter startup file"),
	ROW(".Rprofile", HOME, PROTECT_RESERVE, "interpreter startup file"),
	ROW(".Renviron", HOME, PROTECT_RESERVE, "interpreter startup file"),
	ROW(".octaverc", HOME, PROTECT_RESERVE, "interpreter startup file"),
	ROW(".julia/config", HOME, PROTECT_RESERVE, "interpreter startup file"),
	ROW(".ghci", HOME, PROTECT_RESERVE, "interpreter startup file"),
		{ NULL, 0, 0, NULL, GIT_NONE, NULL },
};

const char *protect_where_name(enum protect_where w)
{
	switch (w) {
	case WHERE_EVERY_ROOT: return "every-root";
	case WHERE_GIT_REPO: return "git-repo";
	case WHERE_SUBMODULE: return "submodule";
	case WHERE_WORKTREE: return "worktree";
	case WHERE_HOME: return "home";
	case WHERE_XDG_CONFIG: return "xdg-config";
	case WHERE_GIT_SETTING: return "git-setting";
	case WHERE_GIT_CONFIG_FILE: return "git-config-file";
	case WHERE_CONFIG_DIRS: return "config-dirs";
	case WHERE_XDG_DATA: return "xdg-data";
	}
	return "?";
}

const char *protect_kind_name(enum protect_kind k)
{
	switch (k) {
	case PROTECT_RESERVE: return "reserve";
	case PROTECT_IF_PRESENT: return "if-present";
	case PROTECT_IF_FILE: return "if-file";
	case PROTECT_CREATE_DIR: return "create-dir";
	case PROTECT_MAKE_FILE: return "make-file";
	}
	return "?";
}

const struct protected_rule *protected_git_rule(enum protect_git g)
{
	for (const struct protected_rule *r = protected_rules; r->pattern; r++)
		if (r->git == g && (r->where & WHERE_GIT_SETTING))
			return r;
	die("no protected row for git setting %d", (int)g);
}
