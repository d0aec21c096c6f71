/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "policy/defaults.h"

#include <stddef.h>

#define H(t, p, d) { .tool = (t), .base = CRED_HOME, .path = (p), .dir = (d) }
#define XC(t, p, d) { .tool = (t), .base = CRED_XDG_CONFIG, .path = (p), .dir = (d) }
#define XD(t, p, d) { .tool = (t), .base = CRED_XDG_DATA, .path = (p), .dir = (d) }
#define XS(t, p, d) { .tool = (t), .base = CRED_XDG_STATE, .path = (p), .dir = (d) }
#define XK(t, p, d) { .tool = (t), .base = CRED_XDG_CACHE, .path = (p), .dir = (d) }
#define XR(t, p, d) { .tool = (t), .base = CRED_XDG_RUNTIME, .path = (p), .dir = (d) }
#define V(t, v, p, d) { .tool = (t), .base = CRED_VAR, .var = (v), .path = (p), .dir = (d) }
/* the same, for a file shown with its secrets removed (cfgfilter.h) */
#define HF(t, p, f, s) { .tool = (t), .base = CRED_HOME, .path = (p), .format = (f), .secret = (s) }
#define XCF(t, p, f, s) { .tool = (t), .base = CRED_XDG_CONFIG, .path = (p), .format = (f), .secret = (s) }
#define VF(t, v, p, f, s) { .tool = (t), .base = CRED_VAR, .var = (v), .path = (p), .format = (f), .secret = (s) }
#define FILE_ false
#define DIR_ true

/* What is secret in each format's files: fnmatch patterns, in any case,
 * on the key as cfgfilter.h names it. Besides these, any value holding a
 * URL with a password (or an http(s) URL with a user) goes. Paths to key
 * files (npm's certfile, keyfile; pip's client-cert) and the names of
 * helper programs (docker's credsStore and credHelpers) are kept: they
 * are not the secret, and what they name stays where it is. */
/* npm: _auth, _authToken, _password, bare or per registry
 * ("//host/:_authToken"); username, email are kept */
static const char *const npmrc_secret[] = { "*_auth", "*token", "*password", "*secret", NULL };
/* twine, pip: password in any section; any *token, *secret */
static const char *const ini_secret[] = { "*password", "*token", "*secret", NULL };
/* yarn berry: npmAuthToken, npmAuthIdent at the top, under
 * npmScopes.NAME and npmRegistries.URL */
static const char *const yarnrc_secret[] = { "*npmauthtoken", "*npmauthident", "*password",
					     "*token", "*secret", NULL };
/* docker: each registry's credentials in auths; an Authorization header */
static const char *const docker_secret[] = { "auths.*.auth", "auths.*.password",
					     "auths.*.identitytoken", "auths.*.registrytoken",
					     "httpheaders.authorization", "*password", "*token",
					     "*secret", NULL };
/* git: every credential section (credential.helper can be a shell
 * snippet that prints the password), every http.extraHeader (an
 * Authorization header), imap.pass, sendemail's smtpPass, any *password,
 * *token */
static const char *const gitconfig_secret[] = { "credential.*", "http.*extraheader", "imap.pass",
						"*smtppass", "*password", "*token", "*secret",
						NULL };

/* Each tool's documented places, and only where it keeps secrets (not a
 * whole editor's or tool's config when one file of it holds them). */
const struct cred_store cred_stores[] = {
	H("ssh", ".ssh", DIR_),
	H("gnupg", ".gnupg", DIR_),
	V("gnupg", "GNUPGHOME", "", DIR_),
	H("aws", ".aws", DIR_),
	V("aws", "AWS_SHARED_CREDENTIALS_FILE", "", FILE_),
	V("aws", "AWS_CONFIG_FILE", "", FILE_),
	H("azure", ".azure", DIR_),
	V("azure", "AZURE_CONFIG_DIR", "", DIR_),
	/* gcloud keeps ~/.config/gcloud whatever $XDG_CONFIG_HOME says */
	H("gcloud", ".config/gcloud", DIR_),
	V("gcloud", "CLOUDSDK_CONFIG", "", DIR_),
	H("kubectl", ".kube", DIR_),
	{ .tool = "kubectl", .base = CRED_VAR_LIST, .var = "KUBECONFIG", .path = "", .dir = FILE_ },
	HF("docker", ".docker/config.json", CF_JSON, docker_secret),
	VF("docker", "DOCKER_CONFIG", "config.json", CF_JSON, docker_secret),
	/* podman, buildah, skopeo: the runtime one first, then the config
	 * one (and docker's) */
	XR("podman", "containers/auth.json", FILE_),
	XC("podman", "containers/auth.json", FILE_),
	V("podman", "REGISTRY_AUTH_FILE", "", FILE_),
	H("netrc", ".netrc", FILE_),
	/* Windows tools' name for it (curl, git there): a home shared with
	 * them holds the same passwords */
	H("netrc", "_netrc", FILE_),
	V("netrc", "NETRC", "", FILE_), /* Go and inetutils' ftp */
	/* git's credential-store, and credential-cache's daemon socket, which
	 * hands the cached passwords to whoever asks */
	H("git", ".git-credentials", FILE_),
	XC("git", "git/credentials", FILE_),
	H("git", ".git-credential-cache", DIR_),
	XK("git", "git/credential", DIR_),
	XC("gh", "gh", DIR_),
	V("gh", "GH_CONFIG_DIR", "", DIR_),
	XC("glab", "glab-cli", DIR_),
	V("glab", "GLAB_CONFIG_DIR", "", DIR_),
	XC("hub", "hub", FILE_),
	V("hub", "HUB_CONFIG", "", FILE_),
	/* npm reads its configuration variables in either case */
	HF("npm", ".npmrc", CF_NPMRC, npmrc_secret),
	VF("npm", "NPM_CONFIG_USERCONFIG", "", CF_NPMRC, npmrc_secret),
	VF("npm", "npm_config_userconfig", "", CF_NPMRC, npmrc_secret),
	HF("yarn", ".yarnrc.yml", CF_YAML, yarnrc_secret),
	HF("twine", ".pypirc", CF_INI, ini_secret),
	/* the user's pip.conf, new place and old (an index URL with a
	 * password in it) */
	XCF("pip", "pip/pip.conf", CF_INI, ini_secret),
	HF("pip", ".pip/pip.conf", CF_INI, ini_secret),
	VF("pip", "PIP_CONFIG_FILE", "", CF_INI, ini_secret),
	/* the user's git config: its credential sections */
	HF("git", ".gitconfig", CF_GITCONFIG, gitconfig_secret),
	XCF("git", "git/config", CF_GITCONFIG, gitconfig_secret),
	VF("git", "GIT_CONFIG_GLOBAL", "", CF_GITCONFIG, gitconfig_secret),
	/* where no system keyring is */
	XC("poetry", "pypoetry/auth.toml", FILE_),
	V("poetry", "POETRY_CONFIG_DIR", "auth.toml", FILE_),
	/* cargo reads the old name too */
	H("cargo", ".cargo/credentials.toml", FILE_),
	H("cargo", ".cargo/credentials", FILE_),
	V("cargo", "CARGO_HOME", "credentials.toml", FILE_),
	V("cargo", "CARGO_HOME", "credentials", FILE_),
	H("pass", ".password-store", DIR_),
	V("pass", "PASSWORD_STORE_DIR", "", DIR_),
	XD("gnome-keyring", "keyrings", DIR_),
	XD("kwallet", "kwalletd", DIR_),
	/* browsers and mail: session cookies and saved passwords, as they
	 * install them (a package, a snap, a flatpak); Firefox's new profiles
	 * go under $XDG_CONFIG_HOME/mozilla */
	H("firefox", ".mozilla", DIR_),
	XC("firefox", "mozilla", DIR_),
	H("firefox", "snap/firefox/common/.mozilla", DIR_),
	H("firefox", ".var/app/org.mozilla.firefox/.mozilla", DIR_),
	XC("chrome", "google-chrome", DIR_),
	H("chrome", ".var/app/com.google.Chrome/config/google-chrome", DIR_),
	XC("chromium", "chromium", DIR_),
	H("chromium", "snap/chromium/common/chromium", DIR_),
	H("chromium", ".var/app/org.chromium.Chromium/config/chromium", DIR_),
	XC("brave", "BraveSoftware", DIR_),
	H("brave", ".var/app/com.brave.Browser/config/BraveSoftware", DIR_),
	XC("edge", "microsoft-edge", DIR_),
	H("edge", ".var/app/com.microsoft.Edge/config/microsoft-edge", DIR_),
	H("thunderbird", ".thunderbird", DIR_),
	H("thunderbird", "snap/thunderbird/common/.thunderbird", DIR_),
	H("thunderbird", ".var/app/org.mozilla.Thunderbird/.thunderbird", DIR_),
	/* more tokens and passwords of common tools */
	H("vault", ".vault-token", FILE_),
	H("postgresql", ".pgpass", FILE_),
	V("postgresql", "PGPASSFILE", "", FILE_),
	H("mysql", ".my.cnf", FILE_),
	H("mysql", ".mylogin.cnf", FILE_), /* mysql_config_editor's */
	V("mysql", "MYSQL_TEST_LOGIN_FILE", "", FILE_),
	H("terraform", ".terraform.d/credentials.tfrc.json", FILE_),
	/* the CLI config's credentials blocks */
	H("terraform", ".terraformrc", FILE_),
	V("terraform", "TF_CLI_CONFIG_FILE", "", FILE_),
	XC("rclone", "rclone", DIR_),
	V("rclone", "RCLONE_CONFIG", "", FILE_),
	H("s3cmd", ".s3cfg", FILE_),
	V("s3cmd", "S3CMD_CONFIG", "", FILE_),
	/* the second where the first is absent */
	H("rubygems", ".gem/credentials", FILE_),
	XD("rubygems", "gem/credentials", FILE_),
	XC("1password", "op", DIR_),
	H("1password", ".op", DIR_),
	V("1password", "OP_CONFIG_DIR", "", DIR_),
	H("emacs", ".authinfo", FILE_),
	H("emacs", ".authinfo.gpg", FILE_),
	H("boto", ".boto", FILE_),
	V("boto", "BOTO_CONFIG", "", FILE_),
	/* repository passwords, and the master password they are encrypted with */
	H("maven", ".m2/settings.xml", FILE_),
	H("maven", ".m2/settings-security.xml", FILE_),
	/* repository and signing passwords */
	H("gradle", ".gradle/gradle.properties", FILE_),
	V("gradle", "GRADLE_USER_HOME", "gradle.properties", FILE_),
	/* its config and API signing keys */
	H("oci", ".oci", DIR_),
	V("oci", "OCI_CLI_CONFIG_FILE", "", FILE_),
	XC("doctl", "doctl", DIR_),
	XC("composer", "composer/auth.json", FILE_),
	H("composer", ".composer/auth.json", FILE_),
	V("composer", "COMPOSER_HOME", "auth.json", FILE_),
	H("flyctl", ".fly/config.yml", FILE_),
	H("pulumi", ".pulumi/credentials.json", FILE_),
	H("databricks", ".databrickscfg", FILE_),
	XK("huggingface", "huggingface/token", FILE_),
	V("huggingface", "HF_HOME", "token", FILE_),
	V("huggingface", "HF_TOKEN_PATH", "", FILE_),
	/* age's secret keys as sops looks them up */
	XC("sops", "sops/age/keys.txt", FILE_),
	V("sops", "SOPS_AGE_KEY_FILE", "", FILE_),
	/* its device key and the API key of its GUI; new setups keep them
	 * under the state home */
	XS("syncthing", "syncthing", DIR_),
	XC("syncthing", "syncthing", DIR_),
	{ NULL, CRED_HOME, NULL, NULL, false, CF_NONE, NULL },
};

const char *cred_base_name(enum cred_base b)
{
	switch (b) {
	case CRED_HOME: return "home";
	case CRED_XDG_CONFIG: return "xdg-config";
	case CRED_XDG_DATA: return "xdg-data";
	case CRED_XDG_STATE: return "xdg-state";
	case CRED_XDG_CACHE: return "xdg-cache";
	case CRED_XDG_RUNTIME: return "xdg-runtime";
	case CRED_VAR: return "var";
	case CRED_VAR_LIST: return "var-list";
	}
	return "?";
}

const char *cred_xdg_var(enum cred_base b)
{
	switch (b) {
	case CRED_XDG_CONFIG: return "XDG_CONFIG_HOME";
	case CRED_XDG_DATA: return "XDG_DATA_HOME";
	case CRED_XDG_STATE: return "XDG_STATE_HOME";
	case CRED_XDG_CACHE: return "XDG_CACHE_HOME";
	case CRED_XDG_RUNTIME: return "XDG_RUNTIME_DIR";
	default: return NULL;
	}
}

const char *cred_xdg_default(enum cred_base b)
{
	switch (b) {
	case CRED_XDG_CONFIG: return ".config";
	case CRED_XDG_DATA: return ".local/share";
	case CRED_XDG_STATE: return ".local/state";
	case CRED_XDG_CACHE: return ".cache";
	default: return NULL; /* the runtime directory has no default */
	}
}

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
	/* documented credential variables no pattern above names (issue 39):
	 * Azure Pipelines' job token, the personal access tokens of GitHub's
	 * and container registries' docs, Terraform's per-host tokens,
	 * Poetry's per-repository ones, yarn's and npm's auth settings (npm
	 * reads its config variables in any case: matched upper-cased) */
	"SYSTEM_ACCESSTOKEN",
	"*_ACCESSTOKEN",
	"*_PAT",
	"TF_TOKEN_*",
	"POETRY_PYPI_TOKEN_*",
	"POETRY_HTTP_BASIC_*_PASSWORD",
	"*_AUTH_IDENT",
	"*_AUTH_TOKEN",
	"NPM_CONFIG_*AUTH*",
	"NPM_CONFIG_*PASSWORD*",
	NULL,
};

