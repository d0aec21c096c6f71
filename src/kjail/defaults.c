/* SPDX-License-Identifier: MIT */
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

