module cannonade.dev/bench/servers

go 1.22
