// A system header (found through -isystem): its unused static function is
// never reported, unless -Wsystem-headers and --system-headers.
#pragma once
static int vendorUnused(int x) { return x - 1; }
