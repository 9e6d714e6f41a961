#!/usr/bin/env bash
# A small shop.
set -euo pipefail

item_total() {
  local price="$1" quantity="$2"
  echo $((price * quantity))
}

function add_item {
  ITEMS+=("$1")
}

cheapest() {
  printf '%s\n' "$@" | sort -n | head -1
}

add_item apple
