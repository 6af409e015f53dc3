#!/bin/sh
# Rebuild the vendored Discord Embedded App SDK (a development tool, never run at install or
# run time: the bot needs no Node.js).
#
#     sh bot/web/vendor_sdk.sh            # the pinned version
#     SDK_VERSION=2.5.1 sh bot/web/vendor_sdk.sh
#
# The npm package @discord/embedded-app-sdk ships ES modules that import one another (its
# dependencies inlined under output/lib), no single browser file; this bundles them once with
# esbuild into bot/web/static/discord-sdk.js (one minified ES module exporting DiscordSDK and
# its enums) and writes the licences of the SDK and of every package bundled into it beside
# it, as bot/web/static/discord-sdk.LICENSE.txt. Needs npm (and so Node.js) on the developer's
# machine only.
set -eu

SDK_VERSION="${SDK_VERSION:-2.5.0}"
ESBUILD_VERSION="${ESBUILD_VERSION:-0.24.2}"
STATIC="$(cd "$(dirname "$0")" && pwd)/static"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

cd "$WORK"
npm init -y >/dev/null
npm install --no-audit --no-fund --silent \
  "@discord/embedded-app-sdk@$SDK_VERSION" "esbuild@$ESBUILD_VERSION"

cat >entry.js <<'EOF'
export { DiscordSDK, Events, Platform, RPCCloseCodes, RPCErrorCodes } from "@discord/embedded-app-sdk";
EOF
./node_modules/.bin/esbuild entry.js --bundle --format=esm --minify --target=es2020 \
  --legal-comments=none --charset=ascii --log-level=warning \
  --banner:js="/* @discord/embedded-app-sdk $SDK_VERSION, bundled by bot/web/vendor_sdk.sh; licences: discord-sdk.LICENSE.txt */" \
  --outfile="$STATIC/discord-sdk.js"

SDK=node_modules/@discord/embedded-app-sdk
{
  echo "bot/web/static/discord-sdk.js is @discord/embedded-app-sdk $SDK_VERSION with the packages"
  echo "it bundles, built by bot/web/vendor_sdk.sh. Their licences follow."
  echo
  echo "==== @discord/embedded-app-sdk $SDK_VERSION ===="
  cat "$SDK/LICENSE.md"
  for package in $(ls "$SDK/output/lib"); do
    [ "$package" = tslib ] && continue
    echo
    echo "==== $package (inlined in the SDK's own build) ===="
    cat node_modules/"$package"/LICEN[CS]E*
  done
  echo
  echo "==== tslib (its helpers, inlined in the SDK's own build) ===="
  sed -n '1,/\*\*\*\*\*\*\*\*\*\* \*\//p' "$SDK/output/lib/tslib/tslib.es6.mjs"
} >"$STATIC/discord-sdk.LICENSE.txt"

echo "wrote $STATIC/discord-sdk.js ($(wc -c <"$STATIC/discord-sdk.js") bytes) and discord-sdk.LICENSE.txt"
