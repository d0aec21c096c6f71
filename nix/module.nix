# SPDX-License-Identifier: MIT
# programs.kli, for NixOS (and nix-darwin) and for home-manager: the same
# module file. It puts one `kli` on PATH: environment.systemPackages where
# the configuration has no `home` options, home.packages where it does.
#
#   programs.kli = {
#     enable = true;
#     apiKeyFile = "~/.config/kli/api-key";   # a kjail secret under `sandbox`
#     settings.capabilities = [ "file/read" "file/write under src/" "process/exec" ];
#     sandbox = {
#       network = true;
#       writablePaths = [ "${config.home.homeDirectory}/.cache/kli" ];
#       denyRead = [ "${config.home.homeDirectory}/.aws" ];
#       denyEnv = [ "AWS_SECRET_ACCESS_KEY" ];
#     };
#   };
#
# The options mirror the original kli's, so existing configurations keep
# working. Every piece of logic is in lib.nix (mkConfiguredKli); this file
# only declares the options and installs the result.
{ config, lib, pkgs, options, ... }:

let
  kliLib = import ./lib.nix;
  cfg = config.programs.kli;
  inherit (lib) mkOption mkEnableOption mkIf types literalExpression;

  pathList = what: example: mkOption {
    type = types.listOf types.str;
    default = [ ];
    inherit example;
    description = ''
      ${what} Each entry is an absolute path or starts with `~/`; a
      relative path is an evaluation error.
    '';
  };

  envList = what: example: mkOption {
    type = types.listOf types.str;
    default = [ ];
    inherit example;
    description = ''
      ${what} Each entry is a variable name or a shell glob pattern
      (`AWS_*`).
    '';
  };

  sandboxOptions = {
    options = {
      network = mkOption {
        type = types.bool;
        default = true;
        description = ''
          Keep the host network. `false` gives the session its own network
          namespace with only loopback: no DNS, and no model API either
          unless the model runs locally.
        '';
      };
      nestedUserns = mkOption {
        type = types.bool;
        default = false;
        description = ''
          For running inside a container that masks /proc: bind the
          existing /proc read-only instead of mounting one, and keep the
          PID namespace (the session then sees the container's processes).
        '';
      };
      allowUserns = mkOption {
        type = types.bool;
        default = false;
        description = ''
          Let the session create user namespaces of its own (for tools that
          sandbox themselves). See kjail(1) for what that costs.
        '';
      };
      cache = mkOption {
        type = types.either types.bool (types.enum [ "shared" ]);
        default = true;
        example = "shared";
        description = ''
          kjail's toolchain caches (`cache`): `true` gives each workspace a
          writable cache directory of kjail's own (npm, pip, go, ccache...
          pointed into it by their variables); `"shared"` binds the user's
          own cache directories writable instead, so what a session writes
          there every later build on the machine reads; `false` makes none.
          See kjail(1).
        '';
      };
      writablePaths = pathList "Paths bound writable besides the working directory."
        (literalExpression ''[ "''${config.home.homeDirectory}/.cache/kli" ]'');
      denyRead = pathList "Paths masked: a file reads as empty, a directory lists as empty."
        (literalExpression ''[ "''${config.home.homeDirectory}/.aws" ]'');
      denyEnv = envList "Variables removed from the session's environment."
        [ "AWS_SECRET_ACCESS_KEY" "GH_TOKEN" ];
      keepEnv = envList "Variables let through kjail's built-in secret scrub."
        [ "GITHUB_TOKEN" ];
      allowedHosts = mkOption {
        type = types.listOf types.str;
        default = [ ];
        example = [ "@models" "@registries" "github.com" "db.internal.example:5432" ];
        description = ''
          An egress allowlist (kjail's `allow-host`): when not empty, the
          session gets its own network namespace and reaches the network
          only through kjail's proxy, to these hosts (`HOST[:PORT]`: a
          name, `*.SUFFIX`, an IP address, or a group such as `@models`;
          the port defaults to 80 and 443). It takes the place of
          `network`. See kjail(1).
        '';
      };
      devices = mkOption {
        type = types.listOf (types.enum [ "gpu" ]);
        default = [ ];
        example = [ "gpu" ];
        description = ''
          Host devices the session may use (kjail's `device`): `gpu` binds
          the host's GPU nodes (`/dev/nvidia*`, `/dev/dri`, `/dev/kfd`)
          read-write; kjail refuses to start where there are none (at that
          start: the build does not look for a GPU). See
          kjail(1) for what a GPU gives away.
        '';
      };
      allowSockets = mkOption {
        type = types.listOf types.str;
        default = [ ];
        example = [ "ssh-agent" "/run/user/1000/app.sock" ];
        description = ''
          Unix sockets the session may reach (kjail's `allow-socket`), each
          bound alone, its directory still masked: `ssh-agent`,
          `gpg-agent`, `docker`, `podman`, `system-bus`, or an absolute
          path. `docker`, `podman` and `system-bus` give the host away
          (kjail warns on every run). A socket that is not there when kli
          starts is kjail's one-line error then; the build does not look
          for it. See kjail(1).
        '';
      };
      checkContainment = mkOption {
        type = types.bool;
        default = true;
        description = ''
          With `settings.capabilities`: check at build time that the grant
          fits the declared sandbox (`kjail --check-config --json`, then
          `kli --check-containment`), failing the build with the gate's
          lines. `false` turns this off and writes a WARNING comment into
          the generated kjail.ini. The check at every start (inside the
          jail, against the real one, before kli runs) stays either way.
        '';
      };
    };
  };
in
{
  options.programs.kli = {
    enable = mkEnableOption "kli, a coding agent that holds only the authority it is granted";

    # pkgs.kli where the overlay (or nixpkgs) has it: nixpkgs' own
    # mkPackageOption; else this checkout's package.nix.
    package = if pkgs ? kli && lib ? mkPackageOption then lib.mkPackageOption pkgs "kli" { } else mkOption {
      type = types.package;
      default = pkgs.callPackage ./package.nix { };
      defaultText = literalExpression "pkgs.callPackage ./nix/package.nix { }";
      description = ''
        The kli (and kjail) package. Under `sandbox` it is used as it is
        (the wrapper passes `settings` by path, `kli --system-config`).
        Without one, `settings` are baked into it through
        `.override { kliSystemConfig = ...; }`, so it must then come from
        nix/package.nix through callPackage.
      '';
    };

    settings = mkOption {
      type = types.attrsOf types.anything;
      default = { };
      example = literalExpression ''
        {
          capabilities = [ "file/read" "file/write under src/" "process/exec" ];
          profile = "print";
          profiles.reviewer = { extends = "print"; capabilities = [ "file/read" ]; };
          model = {
            base-url = "http://127.0.0.1:8080/v1";
            model = "qwen2.5-coder";
            api-key-file = "~/.config/kli/api-key";
          };
          bash.env-allowlist = [ "PATH" "LANG" "LC_*" ];
        }
      '';
      description = ''
        kli's configuration, a store file kli reads as its system config.ini
        (passed by the sandbox wrapper with `--system-config`, so a change
        rebuilds no kli; baked into the package without a sandbox):
        the lowest layer, under ~/.config/kli/config.ini and a project's
        .kli/config.ini (which may only narrow). Keys: `capabilities` (a
        list; `[ ]` grants nothing), `profile`, `profiles.NAME` (`extends`,
        `capabilities`), `model` (`base-url`, `model`, `api-key-file`,
        `api-key-env`, `api-key-secret`, `timeout`, `retries`) and
        `bash.env-allowlist`. Prefer `apiKeyFile` for the key.
        No secrets: the store is readable by every local user.
      '';
    };

    apiKeyFile = mkOption {
      type = types.nullOr types.str;
      default = null;
      example = "~/.config/kli/api-key";
      description = ''
        The model's API key file (absolute or `~/`), read when kli starts,
        never copied into the store. With `sandbox` set, the wrapper passes
        it as a kjail secret (`kjail --secret model=FILE`) and kli's config
        says `api-key-secret = model`: kjail reads the file outside the
        jail, masks it inside and hands the key to kli on a descriptor,
        which kli closes before any tool runs, so no tool can read the key.
        Without `sandbox` it becomes `api-key-file = FILE`. Beside a key
        named in `settings.model` it is an evaluation error.
      '';
    };

    sandbox = mkOption {
      type = types.nullOr (types.submodule sandboxOptions);
      default = null;
      example = literalExpression ''
        {
          network = false;
          denyRead = [ "''${config.home.homeDirectory}/.aws" ];
          denyEnv = [ "AWS_SECRET_ACCESS_KEY" ];
        }
      '';
      description = ''
        null: install kli as it is. A set (even `{ }`): install a `kli`
        that runs the real one under kjail with a policy generated from
        this set and kept in the store. The wrapper passes it with
        `--config`, so neither the user's kjail config nor anything in the
        workspace or the environment can loosen it. The working directory
        is writable, the rest of the host read-only, kjail's built-in
        credential masks and secret scrub apply. The unwrapped kli stays
        reachable as `finalPackage.passthru.unsandboxed`. The build checks
        the policy as declared (`kjail --check-config`, nothing of the
        build machine looked at). With `settings.capabilities` set, it
        also runs `kli --check-containment` against that declared policy
        (unless `checkContainment = false`): a grant it cannot honour
        (file/write under a path it keeps read-only, file/read of a path
        it masks) fails the build with the gate's lines; and the wrapper
        runs the same check inside the jail, against the real one, at
        every start, before kli.
      '';
    };

    finalPackage = mkOption {
      type = types.package;
      readOnly = true;
      default = kliLib.mkConfiguredKli {
        inherit pkgs;
        inherit (cfg) package settings sandbox apiKeyFile;
      };
      defaultText = literalExpression "the wrapped (or configured) kli";
      description = "The kli put on PATH: the kjail wrapper when `sandbox` is set, else the configured kli.";
    };
  };

  config = mkIf cfg.enable (
    {
      # an allowlist is its own network namespace: the generated kjail.ini
      # says network = false beside it
      warnings =
        if cfg.sandbox != null && cfg.sandbox.allowedHosts != [ ] && cfg.sandbox.network then
          [ "programs.kli.sandbox.allowedHosts overrides network = true: the session reaches only the listed hosts, through kjail's proxy (set network = false to say so)" ]
        else [ ];
    }
    // (if options ? home then { home.packages = [ cfg.finalPackage ]; }
        else { environment.systemPackages = [ cfg.finalPackage ]; })
  );
}
