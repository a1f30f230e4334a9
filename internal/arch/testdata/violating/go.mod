module notifio

go 1.22
