package io.bindfirst.server.access.aci;

import java.time.DayOfWeek;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/** Bind rules on the server's local time: {@code dayofweek} and {@code timeofday}. */
final class TimeRules {
    private TimeRules() {
    }

    /** {@code dayofweek="mon,tue,wed"}: today is one of the days. */
    record Days(Set<DayOfWeek> days) implements BindRule {
        static Days parse(String value) {
            EnumSet<DayOfWeek> out = EnumSet.noneOf(DayOfWeek.class);
            for (String d : value.split(",")) {
                out.add(day(d.trim().toLowerCase(Locale.ROOT)));
            }
            return new Days(out);
        }

        private static DayOfWeek day(String d) {
            switch (d) {
                case "sun": return DayOfWeek.SUNDAY;
                case "mon": return DayOfWeek.MONDAY;
                case "tue": return DayOfWeek.TUESDAY;
                case "wed": return DayOfWeek.WEDNESDAY;
                case "thu": return DayOfWeek.THURSDAY;
                case "fri": return DayOfWeek.FRIDAY;
                case "sat": return DayOfWeek.SATURDAY;
                default: throw new IllegalArgumentException("dayofweek takes sun, mon, tue, wed, thu, fri, sat, not "
                        + d);
            }
        }

        @Override
        public boolean matches(AciContext c) {
            return days.contains(c.now().getDayOfWeek());
        }
    }

    /** {@code timeofday>="0800"}: the time of day as {@code hhmm}, compared. */
    record TimeOfDay(Comparison comparison, int hhmm) implements BindRule {
        static TimeOfDay parse(Comparison comparison, String value) {
            String v = value.trim();
            if (!v.matches("\\d{4}") || Integer.parseInt(v.substring(0, 2)) > 23
                    || Integer.parseInt(v.substring(2)) > 59) {
                throw new IllegalArgumentException("timeofday takes hhmm (0000 to 2359), not " + value);
            }
            return new TimeOfDay(comparison, Integer.parseInt(v));
        }

        @Override
        public boolean matches(AciContext c) {
            int now = c.now().getHour() * 100 + c.now().getMinute();
            return comparison.holds(Integer.compare(now, hhmm));
        }
    }
}
