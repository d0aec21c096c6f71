#include "config.h"
#include "defaults.h"

#include <stddef.h>

const char *const default_home_masks[] = {
	".ssh",
	".gnupg",
	".aws",
	".azure",
	".config/gcloud",
	".kube",
	".docker/config.json",
	".netrc",
	".git-credentials",
	".config/gh",
	".npmrc",
	".pypirc",
	".cargo/credentials.toml",
	".password-store",
	".local/share/keyrings",
	/* browsers and mail: session cookies and saved passwords */
	".mozilla",
	".config/google-chrome",
	".config/chromium",
	".config/BraveSoftware",
	".config/microsoft-edge",
	".thunderbird",
	/* more tokens and passwords of common tools */
	".vault-token",
	".pgpass",
	".terraform.d/credentials.tfrc.json",
	".config/rclone",
	".s3cfg",
	".gem/credentials",
	".config/hub",
	".config/op",
	".authinfo",
	".authinfo.gpg",
	NULL,
};

/* Sockets that reach past the jail: a container engine or a service
 * manager runs what it is asked to, as root, outside any jail (a root
 * caller's jail would simply ask systemd for a shell), and the system bus
 * also reaches logind (power off), disk, network and package managers.
 * Absent ones are skipped; /var/run resolves to /run where it is a link. */
const struct default_mask default_socket_masks[] = {
	{ "/run/docker.sock", "built-in: container engine socket" },
	{ "/var/run/docker.sock", "built-in: container engine socket" },
	{ "/run/podman/podman.sock", "built-in: container engine socket" },
	{ "/run/containerd/containerd.sock", "built-in: container engine socket" },
	/* their runtime directories hold more sockets (shims, an embedded
	 * containerd) that only root reaches, which a jail run as root is */
	{ "/run/containerd", "built-in: container engine sockets" },
	{ "/run/docker", "built-in: container engine sockets" },
	{ "/run/crio/crio.sock", "built-in: container engine socket" },
	{ "/run/buildkit/buildkitd.sock", "built-in: container engine socket" },
	{ "/var/lib/lxd/unix.socket", "built-in: container engine socket" },
	{ "/var/snap/lxd/common/lxd/unix.socket", "built-in: container engine socket" },
	{ "/var/lib/incus/unix.socket", "built-in: container engine socket" },
	{ "/run/libvirt/libvirt-sock", "built-in: virtual machine manager socket" },
	{ "/run/libvirt/virtqemud-sock", "built-in: virtual machine manager socket" },
	{ "/run/dbus/system_bus_socket", "built-in: system bus socket" },
	{ "/var/run/dbus/system_bus_socket", "built-in: system bus socket" },
	{ "/run/systemd/private", "built-in: systemd's private socket" },
	{ "/run/snapd.socket", "built-in: snapd socket" },
	{ "/run/snapd-snap.socket", "built-in: snapd socket" },
	{ "/run/screen", "built-in: terminal multiplexer sockets" },
	/* as root: udev's control (stop event handling, set properties) and
	 * the print server's administration (a backend of its choice runs
	 * as root) */
	{ "/run/udev/control", "built-in: udev's control socket" },
	{ "/run/cups/cups.sock", "built-in: print server socket" },
	/* the smart-card daemon: raw access to the user's hardware keys */
	{ "/run/pcscd", "built-in: smart-card daemon socket" },
	{ NULL, NULL },
};

/* Run as root, the jail's uid is the host's root: with every capability
 * dropped it reads only what root owns, and that is the machine's own
 * secrets. */
const struct default_mask root_masks[] = {
	{ "/etc/shadow", "built-in, as root: password hashes" },
	{ "/etc/shadow-", "built-in, as root: password hashes" },
	{ "/etc/gshadow", "built-in, as root: password hashes" },
	{ "/etc/gshadow-", "built-in, as root: password hashes" },
	{ "/etc/ssh/ssh_host_ed25519_key", "built-in, as root: the host's SSH keys" },
	{ "/etc/ssh/ssh_host_ecdsa_key", "built-in, as root: the host's SSH keys" },
	{ "/etc/ssh/ssh_host_rsa_key", "built-in, as root: the host's SSH keys" },
	{ "/etc/ssh/ssh_host_dsa_key", "built-in, as root: the host's SSH keys" },
	{ "/etc/ssl/private", "built-in, as root: TLS keys" },
	{ "/etc/letsencrypt", "built-in, as root: TLS keys" },
	{ "/etc/NetworkManager/system-connections", "built-in, as root: network passwords" },
	{ "/etc/wpa_supplicant", "built-in, as root: network passwords" },
	{ "/etc/wireguard", "built-in, as root: VPN keys" },
	{ "/etc/openvpn", "built-in, as root: VPN keys" },
	{ "/var/lib/tailscale", "built-in, as root: VPN keys" },
	{ "/etc/krb5.keytab", "built-in, as root: Kerberos keys" },
	{ "/etc/kubernetes/pki", "built-in, as root: cluster keys" },
	{ "/etc/kubernetes/admin.conf", "built-in, as root: cluster keys" },
	{ "/var/lib/cloud", "built-in, as root: cloud-init data (user data holds secrets)" },
	{ NULL, NULL },
};

/* Under no network, the host's name resolvers would still look names up
 * for the jail (and leak whatever a name carries to a DNS server). */
const struct default_mask no_network_socket_masks[] = {
	{ "/run/nscd/socket", "host name resolver" },
	{ "/run/systemd/resolve/io.systemd.Resolve", "host name resolver" },
	{ "/run/avahi-daemon/socket", "host mDNS resolver" },
	{ NULL, NULL },
};

/* Not *_KEY: the agent's own model API key has to reach it. */
const char *const default_env_scrub[] = {
	"AWS_*",
	"AZURE_*",
	"*_TOKEN",
	"*_SECRET",
	"*_SECRET_*",
	"*_PASSWORD",
	"SSH_AUTH_SOCK",
	"GPG_AGENT_INFO",
	"DBUS_SESSION_BUS_ADDRESS",
	"GOOGLE_APPLICATION_CREDENTIALS",
	/* more of the same, under names the patterns above miss */
	"*_PASSPHRASE",
	"*_PRIVATE_KEY",
	"*_CREDENTIALS",
	"PGPASSWORD",
	"MYSQL_PWD",
	"SSHPASS",
	"DOCKER_AUTH_CONFIG",
	"OP_SESSION_*",
	NULL,
};

/* Each of these changes what runs later, outside the jail, when the user
 * next works in the directory: a hook, a git config (core.hooksPath,
 * core.fsmonitor), a worktree's gitdir pointer, a submodule URL, a direnv
 * script, an editor task that runs on folder open. */
const struct protected_name protected_in_root[] = {
	{ ".git/hooks", "git hooks", PROTECT_ANY },
	{ ".git/config", "git config", PROTECT_ANY },
	/* git takes its config and hooks from the directory this names */
	{ ".git/commondir", "git common directory link", PROTECT_MOVE_ASIDE },
	{ ".git", "git worktree link", PROTECT_FILE_ONLY },
	{ ".gitmodules", "git submodules", PROTECT_ANY },
	{ ".envrc", "direnv script", PROTECT_ANY },
	{ ".vscode", "editor config", PROTECT_ANY },
	{ ".idea", "editor config", PROTECT_ANY },
	/* coding agents' project settings: their hooks and MCP servers are
	 * commands the agent runs, outside the jail, the next time it starts in
	 * the directory (.claude/settings.json hooks, .mcp.json, Cursor's and
	 * Gemini CLI's mcp servers) */
	{ ".claude", "coding agent config", PROTECT_ANY },
	{ ".mcp.json", "coding agent config", PROTECT_ANY },
	{ ".cursor", "coding agent config", PROTECT_ANY },
	{ ".gemini", "coding agent config", PROTECT_ANY },
	/* initializeCommand runs on the host when the folder is opened */
	{ ".devcontainer", "dev container config", PROTECT_ANY },
	/* the hooks pre-commit installs in .git/hooks run what this names */
	{ ".pre-commit-config.yaml", "git hook config", PROTECT_ANY },
	/* so do lefthook's (its config in any format it reads at the top, and
	 * its script directories) and husky's (the scripts its hooks call);
	 * its .config/ ones are below, with mise's */
	{ "lefthook.yml", "git hook config", PROTECT_ANY },
	{ ".lefthook.yml", "git hook config", PROTECT_ANY },
	{ "lefthook.yaml", "git hook config", PROTECT_ANY },
	{ ".lefthook.yaml", "git hook config", PROTECT_ANY },
	{ "lefthook.toml", "git hook config", PROTECT_ANY },
	{ ".lefthook.toml", "git hook config", PROTECT_ANY },
	{ "lefthook.json", "git hook config", PROTECT_ANY },
	{ ".lefthook.json", "git hook config", PROTECT_ANY },
	{ "lefthook.jsonc", "git hook config", PROTECT_ANY },
	{ ".lefthook.jsonc", "git hook config", PROTECT_ANY },
	{ "lefthook-local.yml", "git hook config", PROTECT_ANY },
	{ ".lefthook-local.yml", "git hook config", PROTECT_ANY },
	{ "lefthook-local.yaml", "git hook config", PROTECT_ANY },
	{ ".lefthook-local.yaml", "git hook config", PROTECT_ANY },
	{ "lefthook-local.toml", "git hook config", PROTECT_ANY },
	{ ".lefthook-local.toml", "git hook config", PROTECT_ANY },
	{ "lefthook-local.json", "git hook config", PROTECT_ANY },
	{ ".lefthook-local.json", "git hook config", PROTECT_ANY },
	{ "lefthook-local.jsonc", "git hook config", PROTECT_ANY },
	{ ".lefthook-local.jsonc", "git hook config", PROTECT_ANY },
	{ ".lefthook", "git hook scripts", PROTECT_ANY },
	{ ".lefthook-local", "git hook scripts", PROTECT_ANY },
	{ ".husky", "git hook scripts", PROTECT_ANY },
	/* more coding agents: aider's lint and test commands (run after each
	 * edit), Continue's, Zed's and OpenCode's MCP and language servers */
	{ ".aider.conf.yml", "coding agent config", PROTECT_ANY },
	{ ".continue", "coding agent config", PROTECT_ANY },
	{ ".zed", "coding agent config", PROTECT_ANY },
	{ "opencode.json", "coding agent config", PROTECT_ANY },
	{ "opencode.jsonc", "coding agent config", PROTECT_ANY },
	{ ".opencode", "coding agent config", PROTECT_ANY },
	/* mise trusts a project config by its path (unless in paranoid mode):
	 * a trusted one the jail edits runs its hooks and env scripts at the
	 * user's next prompt there. Its nested configs, like lefthook's under
	 * .config/, only when there: an absent one would pin its directory on
	 * macOS (and mise asks before it trusts a config it never saw). */
	{ "mise.toml", "tool manager config", PROTECT_ANY },
	{ ".mise.toml", "tool manager config", PROTECT_ANY },
	{ "mise.local.toml", "tool manager config", PROTECT_ANY },
	{ ".mise.local.toml", "tool manager config", PROTECT_ANY },
	{ ".mise", "tool manager config", PROTECT_ANY },
	{ "mise/config.toml", "tool manager config", PROTECT_PRESENT },
	{ "mise/config.local.toml", "tool manager config", PROTECT_PRESENT },
	{ ".config/mise.toml", "tool manager config", PROTECT_PRESENT },
	{ ".config/mise.local.toml", "tool manager config", PROTECT_PRESENT },
	{ ".config/mise", "tool manager config", PROTECT_PRESENT },
	{ ".config/lefthook.yml", "git hook config", PROTECT_PRESENT },
	{ ".config/lefthook.yaml", "git hook config", PROTECT_PRESENT },
	{ ".config/lefthook.toml", "git hook config", PROTECT_PRESENT },
	{ ".config/lefthook.json", "git hook config", PROTECT_PRESENT },
	{ ".config/lefthook.jsonc", "git hook config", PROTECT_PRESENT },
	{ ".config/lefthook-local.yml", "git hook config", PROTECT_PRESENT },
	{ ".config/lefthook-local.yaml", "git hook config", PROTECT_PRESENT },
	{ ".config/lefthook-local.toml", "git hook config", PROTECT_PRESENT },
	{ ".config/lefthook-local.json", "git hook config", PROTECT_PRESENT },
	{ ".config/lefthook-local.jsonc", "git hook config", PROTECT_PRESENT },
	/* editors that start what the project says when opened there: Helix's
	 * language servers (.helix/languages.toml), Vim's exrc files (Neovim
	 * asks before it runs a changed one) */
	{ ".helix", "editor config", PROTECT_ANY },
	{ ".vimrc", "editor startup file", PROTECT_ANY },
	{ ".exrc", "editor startup file", PROTECT_ANY },
	{ NULL, NULL, 0 },
};

const struct protected_name protected_in_home[] = {
	{ ".bashrc", "shell startup file", PROTECT_ANY },
	{ ".bash_profile", "shell startup file", PROTECT_ANY },
	{ ".bash_login", "shell startup file", PROTECT_ANY },
	{ ".bash_logout", "shell startup file", PROTECT_ANY },
	{ ".profile", "shell startup file", PROTECT_ANY },
	{ ".zshrc", "shell startup file", PROTECT_ANY },
	{ ".zshenv", "shell startup file", PROTECT_ANY },
	{ ".zprofile", "shell startup file", PROTECT_ANY },
	{ ".zlogin", "shell startup file", PROTECT_ANY },
	{ ".config/fish", "shell startup file", PROTECT_ANY },
	{ ".bash_aliases", "shell startup file", PROTECT_ANY }, /* Debian's .bashrc sources it */
	{ ".bashrc.d", "shell startup file", PROTECT_ANY },    /* Fedora's sources each */
	{ ".config/zsh", "shell startup file", PROTECT_ANY },  /* a common ZDOTDIR */
	{ ".oh-my-zsh", "shell startup file", PROTECT_ANY },   /* custom/ is sourced */
	{ ".config/nushell", "shell startup file", PROTECT_ANY },
	{ ".config/starship.toml", "shell prompt config", PROTECT_ANY }, /* runs commands */
	{ ".gitconfig", "git config", PROTECT_ANY },
	{ ".config/git", "git config", PROTECT_ANY },
	{ ".ssh", "ssh config", PROTECT_ANY },
	/* the session: what starts at the next login */
	{ ".config/systemd", "user services", PROTECT_ANY },
	{ ".local/share/systemd", "user services", PROTECT_ANY },
	{ ".config/autostart", "session autostart", PROTECT_ANY },
	{ ".config/environment.d", "session environment", PROTECT_ANY },
	{ ".pam_environment", "session environment", PROTECT_ANY },
	{ ".xprofile", "session startup file", PROTECT_ANY },
	{ ".xsessionrc", "session startup file", PROTECT_ANY },
	{ ".xinitrc", "session startup file", PROTECT_ANY },
	{ ".xsession", "session startup file", PROTECT_ANY },
	{ ".config/plasma-workspace", "session startup file", PROTECT_ANY }, /* env scripts */
	/* on PATH (Debian's .profile adds the first two when they exist):
	 * a program put there runs instead of the system's */
	{ ".local/bin", "directory on PATH", PROTECT_ANY },
	{ "bin", "directory on PATH", PROTECT_ANY },
	{ ".cargo/bin", "directory on PATH", PROTECT_ANY },
	{ "go/bin", "directory on PATH", PROTECT_ANY },
	/* editors and the terminal multiplexer run commands from these */
	{ ".vimrc", "editor startup file", PROTECT_ANY },
	{ ".config/nvim", "editor startup file", PROTECT_ANY },
	{ ".emacs", "editor startup file", PROTECT_ANY },
	{ ".emacs.d", "editor startup file", PROTECT_ANY },
	{ ".config/emacs", "editor startup file", PROTECT_ANY },
	{ ".tmux.conf", "tmux startup file", PROTECT_ANY },
	{ ".config/tmux", "tmux startup file", PROTECT_ANY },
	/* what every build or session of a tool runs: cargo's rustc-wrapper,
	 * Gradle's init scripts, IPython's startup files, Jupyter's config */
	{ ".cargo/config.toml", "build tool config", PROTECT_ANY },
	{ ".cargo/config", "build tool config", PROTECT_ANY },
	{ ".gradle/init.d", "build tool config", PROTECT_ANY },
	{ ".gradle/init.gradle", "build tool config", PROTECT_ANY },
	{ ".gradle/init.gradle.kts", "build tool config", PROTECT_ANY },
	{ ".ipython", "interpreter startup file", PROTECT_ANY },
	{ ".jupyter", "interpreter startup file", PROTECT_ANY },
	/* coding agents' and editors' global settings: hooks, MCP and
	 * language servers they start outside the jail */
	{ ".claude/settings.json", "coding agent config", PROTECT_ANY },
	{ ".codex/config.toml", "coding agent config", PROTECT_ANY },
	{ ".gemini/settings.json", "coding agent config", PROTECT_ANY },
	{ ".cursor/mcp.json", "coding agent config", PROTECT_ANY },
	{ ".continue/config.yaml", "coding agent config", PROTECT_ANY },
	{ ".continue/config.json", "coding agent config", PROTECT_ANY },
	{ ".aider.conf.yml", "coding agent config", PROTECT_ANY },
	{ ".config/opencode", "coding agent config", PROTECT_ANY },
	{ ".config/zed", "editor config", PROTECT_ANY },
	{ ".config/helix", "editor config", PROTECT_ANY },
	{ ".config/Code/User", "editor config", PROTECT_ANY }, /* tasks, terminal profiles */
	/* what a shell, an interpreter or a debugger loads on its own: Python
	 * runs the .pth files of the user's site-packages (.local/lib/pythonX.Y)
	 * at every start; bash-completion sources these in every interactive
	 * shell; direnv sources direnvrc and trusts what direnv.toml lists;
	 * gdb runs its init files */
	{ ".local/lib", "interpreter's user packages", PROTECT_ANY },
	{ ".bash_completion", "shell startup file", PROTECT_ANY },
	{ ".local/share/bash-completion", "shell startup file", PROTECT_ANY },
	{ ".config/direnv", "shell startup file", PROTECT_ANY },
	{ ".gdbinit", "debugger startup file", PROTECT_ANY },
	{ ".config/gdb", "debugger startup file", PROTECT_ANY },
	{ NULL, NULL, 0 },
};
