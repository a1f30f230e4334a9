// Package poll is Notifio's watcher: scheduling, fetching, classifying, extracting
// and committing the results of each search, and publishing snapshots to observers.
package poll

import ()
