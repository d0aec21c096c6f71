# SPDX-License-Identifier: MIT
# kjail and kli, built with autotools. callPackage-style:
#
#   pkgs.callPackage ./nix/package.nix { }
#   pkgs.callPackage ./nix/package.nix { kliSystemConfig = ./my-kli.ini; }
#
# kliSystemConfig: the file kli reads as its system config (the lowest
# layer, under ~/.config/kli/config.ini and a project's .kli/config.ini).
# null keeps /etc/kli/config.ini, which programs.kli writes on NixOS.
# Neither lib.mkConfiguredKli nor programs.kli sets it: they pass
# `settings` as a store file (kli --system-config), so a settings change
# rebuilds no kli; it is here for a kli with its config built in.
{ lib
, stdenv
, autoreconfHook
, pkg-config
, bubblewrap
, libbsd
, inih
, libseccomp
, jansson
, curl
, cmocka
, writeText
, runCommand
, runtimeShell
, kliSystemConfig ? null
, src ? null
}:

let
  kliLib = import ./lib.nix;
  root = ../.;
in
stdenv.mkDerivation (finalAttrs: {
  pname = "kli";
  version = kliLib.versionOf (builtins.readFile (root + "/configure.ac"));

  # The checkout without build products (see sourceFilter in lib.nix).
  src = if src != null then src else builtins.path {
    path = root;
    name = "kli-source";
    filter = kliLib.sourceFilter root;
  };

  strictDeps = true;
  enableParallelBuilding = true;
  nativeBuildInputs = [ autoreconfHook pkg-config ];
  buildInputs = [ libbsd inih libseccomp jansson curl ];
  # configure finds cmocka with pkg-config; only the unit tests link it.
  checkInputs = [ cmocka ];

  configureFlags = [
    # kjail runs bwrap by absolute path, never through PATH: this one.
    "--with-bwrap=${bubblewrap}/bin/bwrap"
    "--with-kli-system-config=${if kliSystemConfig == null then "/etc/kli/config.ini" else "${kliSystemConfig}"}"
    "--with-kjail-system-config=/etc/kjail/config.ini"
  ];

  # Only the unit tests (cmocka) run here. The integration tests run kjail,
  # which needs what a build sandbox does not reliably give: unprivileged
  # user namespaces nested in the sandbox's own, a fresh /proc mount, a
  # network namespace, a home directory and an account in /etc/passwd;
  # some need mandoc or nix-instantiate. They run in the project's CI
  # (`make check`, as root and as an unprivileged user) instead.
  doCheck = stdenv.buildPlatform.canExecute stdenv.hostPlatform;
  checkPhase = ''
    runHook preCheck
    make -j''${NIX_BUILD_CORES:-1} check 'TESTS=$(filter tests/unit/%,$(check_PROGRAMS))'
    runHook postCheck
  '';

  # The installed programs start, and kli accepts its system config (with
  # kliSystemConfig, a mistake there fails here, not on the first run).
  doInstallCheck = stdenv.buildPlatform.canExecute stdenv.hostPlatform;
  installCheckPhase = ''
    runHook preInstallCheck
    export HOME="$TMPDIR/home" XDG_CONFIG_HOME="$TMPDIR/home/.config"
    mkdir -p "$HOME"
    $out/bin/kjail --version | grep -F '${bubblewrap}/bin/bwrap'
    $out/bin/kli --version
    (cd "$HOME" && $out/bin/kli --print-authority)
    runHook postInstallCheck
  '';

  passthru = {
    inherit kliSystemConfig;
    bwrap = "${bubblewrap}/bin/bwrap";
    # Building it runs this package's kjail --check-config and kli
    # --check-containment on a sandbox policy and a grant that fits it
    # (nix-build.test builds such wrappers in a real Nix sandbox; the
    # offline evaluation is nix-eval.test and nix-modules.test).
    tests.sandboxed = kliLib.mkConfiguredKli {
      pkgs = { inherit stdenv writeText runCommand runtimeShell; };
      package = finalAttrs.finalPackage;
      inherit lib;
      settings.kli.capabilities = [ "file/read" "file/write under src/" "process/exec" ];
      sandbox = { network = false; denyRead = [ "~/.ssh" ]; };
    };
  };

  meta = {
    description = "kjail, a whole-process jail over bubblewrap, and kli, a coding agent that holds only the authority it is granted";
    mainProgram = "kli";
    license = lib.licenses.mit;
    # bubblewrap, seccomp and Landlock: Linux only (kjail's Seatbelt
    # backend for macOS is not ready).
    platforms = lib.platforms.linux;
    # No homepage: the project has no public URL (configure.ac's AC_INIT
    # names none), and meta.homepage takes none that is not real.
  };
})
