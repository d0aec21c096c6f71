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
  # like nix/package.nix, .override { kliSystemConfig } makes another
  # package (the real one configures kli with it)
  mkPackage = config: sh (''
    mkdir -p "$out/bin" "$out/share/man/man1"
    ln -s ${tree}/kjail "$out/bin/kjail"
    ln -s ${tree}/kli "$out/bin/kli"
  '' + (if config == null then "" else "ln -s ${config} $out/system-config\n"))
    { name = "kli-stand-in-0"; } // {
      version = "0";
      override = a: mkPackage (a.kliSystemConfig or null);
    };
  package = mkPackage null;
  caps = [ "file/read" "file/write under src/" "process/exec" ];
  cases = rec {
    # contrib/nix/README.md's NixOS example
    readme = {
      settings.capabilities = caps;
      sandbox = {
        network = true;
        denyRead = [ "/srv/secrets" "~/.config/rclone" ];
        denyEnv = [ "AWS_SECRET_ACCESS_KEY" "GH_TOKEN" ];
      };
    };
    empty = { sandbox = { }; };
    hosts = { settings.capabilities = caps; sandbox.allowedHosts = [ "example.org" ]; };
    sockets = { settings.capabilities = caps; sandbox.allowSockets = [ "ssh-agent" "~/kli-test.sock" ]; };
    gpu = { settings.capabilities = caps; sandbox.devices = [ "gpu" ]; };
    homewrite = {
      settings.capabilities = [ "file/read" "file/write under ~/notes" "process/exec" ];
      sandbox.writablePaths = [ "~/notes" ];
    };
    # the README example with other settings: only the config file changes
    readme2 = cases.readme // { settings.capabilities = [ "file/read" "process/exec" ]; };
    exceeds = { settings.capabilities = [ "file/write under /etc" ]; sandbox = { }; };
    unchecked = {
      settings.capabilities = [ "file/write under /etc" ];
      sandbox.checkContainment = false;
    };
  };
in
kliLib.mkConfiguredKli ({ inherit pkgs package; } // cases.${case})
