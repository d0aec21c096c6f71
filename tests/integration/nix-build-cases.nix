# SPDX-License-Identifier: MIT
# nix-build.test's derivations: nix/lib.nix's mkConfiguredKli over a
# minimal stand-in for the nixpkgs builders it uses (writeText, runCommand,
# runtimeShell, stdenv's platforms) written as plain `derivation`s with
# /bin/sh as builder, and this build's own kjail and kli as the package.
# The build sandbox gets /bin/sh, /usr and the libraries from the host
# through the test's sandbox-paths, and the build tree (where the stand-in
# package's links point: kjail finds kjail-entry beside its real path).
{ lib ? ../../nix/lib.nix, tree, case }:
let
  b = builtins;
  kliLib = import lib;
  system = b.currentSystem;
  sh = cmd: env: derivation ({
    inherit system;
    builder = "/bin/sh";
    args = [ "-c" cmd ];
    PATH = "/usr/bin:/bin";
  } // env);
  pkgs = {
    runtimeShell = "/bin/sh";
    stdenv = { buildPlatform.system = system; hostPlatform.system = system; };
    writeText = name: text: sh "printf '%s' \"$text\" >\"$out\"" { inherit name text; };
    runCommand = name: env: cmd:
      sh cmd (removeAttrs env [ "passthru" "meta" ] // { inherit name; })
      // (env.passthru or { }) // { meta = env.meta or { }; };
    callPackage = _: _: throw "nix-build-cases.nix: the stand-in has no callPackage";
  };
  # the package: links to this build's programs. No .override: nothing
  # on lib.nix's paths rebuilds kli for a setting.
  package = sh ''
    mkdir -p "$out/bin" "$out/share/man/man1"
    ln -s ${tree}/kjail "$out/bin/kjail"
    ln -s ${tree}/kli "$out/bin/kli"
  '' { name = "kli-stand-in-0"; } // { version = "0"; };
  caps = [ "file/read" "file/write under src/" "process/exec" ];
  cases = rec {
    # contrib/nix/README.md's NixOS example
    readme = {
      settings.kli.capabilities = caps;
      sandbox = {
        network = true;
        denyRead = [ "/srv/secrets" "~/.config/rclone" ];
        denyEnv = [ "AWS_SECRET_ACCESS_KEY" "GH_TOKEN" ];
      };
    };
    empty = { sandbox = { }; };
    hosts = { settings.kli.capabilities = caps; sandbox.allowedHosts = [ "example.org" ]; };
    sockets = { settings.kli.capabilities = caps; sandbox.allowSockets = [ "ssh-agent" "~/kli-test.sock" ]; };
    gpu = { settings.kli.capabilities = caps; sandbox.devices = [ "gpu" ]; };
    homewrite = {
      settings.kli.capabilities = [ "file/read" "file/write under ~/notes" "process/exec" ];
      sandbox.writablePaths = [ "~/notes" ];
    };
    # the README example with other settings: only the config file changes
    readme2 = cases.readme // { settings.kli.capabilities = [ "file/read" "process/exec" ]; };
    # the older settings shape still builds
    legacy = cases.readme // { settings.capabilities = caps; };
    exceeds = { settings.kli.capabilities = [ "file/write under /etc" ]; sandbox = { }; };
    unchecked = {
      settings.kli.capabilities = [ "file/write under /etc" ];
      sandbox.checkContainment = false;
    };
    # no sandbox (home-manager's way): a kli that passes the settings'
    # store file with --system-config; and with other settings
    plain = { settings.kli.capabilities = caps; };
    plain2 = { settings.kli.capabilities = [ "file/read" ]; };
  };
in
kliLib.mkConfiguredKli ({ inherit pkgs package; } // cases.${case})
