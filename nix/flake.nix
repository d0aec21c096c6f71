# SPDX-License-Identifier: MIT
# kjail and kli for Nix. Use it as `git+https://...?dir=nix` (or
# `github:OWNER/REPO?dir=nix`): the package is built from the directory
# above this one.
#
# This flake has NO inputs, on purpose: it evaluates offline, pins no
# nixpkgs of its own, and builds with the nixpkgs of whoever uses it. The
# price is that a flake without nixpkgs cannot build a derivation by itself,
# so the outputs are the ones that need no nixpkgs until they are used:
#
#   overlays.default        pkgs.kli (kjail and kli), pkgs.kjail (the same
#                           package) and pkgs.mkConfiguredKli, built from the
#                           final package set the overlay is applied to
#   nixosModules.default    programs.kli (module.nix)
#   homeModules.default     the same module for home-manager
#   homeManagerModules.default  an alias, the older output name
#   lib.mkConfiguredKli     { pkgs, package?, settings?, sandbox? } -> kli
#   lib.kliConfigFile       { pkgs, settings?, sandbox?, apiKeyFile? } -> the
#                           settings' store file (null for none)
#   lib.packagesFor         pkgs -> { default, kli, kjail }
#
# and `packages.<system>`: lib.packagesFor applied to a nixpkgs found on the
# search path (NIX_PATH or -I nixpkgs=...), which only impure evaluation
# can see. So `nix build --impure ./nix#kli` builds with the nixpkgs on
# NIX_PATH; in pure mode `packages` is empty (`nix flake check` passes) and
# `nix build ./nix#kli` finds legacyPackages.<system>.kli, an evaluation
# error that says what to use instead (the overlay, or lib.packagesFor).
{
  description = "kjail (a whole-process jail over bubblewrap) and kli (a coding agent), with a programs.kli module";

  outputs = { self, ... }:
    let
      kliLib = import ./lib.nix;

      # bubblewrap, seccomp and Landlock: Linux only.
      systems = [ "x86_64-linux" "aarch64-linux" "i686-linux" "armv7l-linux" "riscv64-linux" ];
      genAttrs = names: f: builtins.listToAttrs (map (name: { inherit name; value = f name; }) names);

      packagesFor = pkgs:
        let kli = pkgs.callPackage ./package.nix { };
        in { default = kli; inherit kli; kjail = kli; };

      overlay = final: prev:
        let p = packagesFor final;
        in {
          inherit (p) kli kjail;
          mkConfiguredKli = args: kliLib.mkConfiguredKli ({ pkgs = final; package = p.kli; lib = final.lib or null; } // args);
        };

      # A nixpkgs from the search path: impure mode only (in pure mode the
      # search path is empty).
      nixpkgsPath =
        let found = builtins.tryEval (builtins.findFile builtins.nixPath "nixpkgs");
        in if builtins.nixPath != [ ] && found.success then found.value else null;

      explain = system: throw ("kli: this flake has no inputs, so packages.${system} needs a nixpkgs on the search path "
        + "(nix build --impure with NIX_PATH=nixpkgs=..., or -I nixpkgs=...). In pure mode, apply "
        + "overlays.default to your nixpkgs, or call lib.packagesFor nixpkgs.legacyPackages.${system}.");
    in
    {
      overlays.default = overlay;

      lib = {
        inherit packagesFor;
        inherit (kliLib) mkConfiguredKli kliConfigFile kjailIni kliIni wrapperScript shellQuote;
      };

      # What can be built: nothing without a nixpkgs, so `nix flake check`
      # and `nix flake show` pass in pure mode. `nix build ./nix#kli` then
      # falls through to legacyPackages, whose attributes say what to do.
      packages =
        if nixpkgsPath == null then { }
        else genAttrs systems (system: packagesFor (import nixpkgsPath { inherit system; }));
      legacyPackages = genAttrs systems (system:
        if nixpkgsPath != null then { }
        else { default = explain system; kli = explain system; kjail = explain system; });

      # A set that imports the file: `nix flake check` wants a function or
      # a set, and an import by path keeps the file's name in error messages.
      nixosModules.default = { imports = [ ./module.nix ]; };
      homeModules.default = { imports = [ ./module.nix ]; };
      homeManagerModules.default = self.homeModules.default;
    };
}
