package cronjob

// MostRecentScheduleTime is mostRecentScheduleTime, for the tests.
var MostRecentScheduleTime = mostRecentScheduleTime
