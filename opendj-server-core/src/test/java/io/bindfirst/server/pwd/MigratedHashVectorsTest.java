package io.bindfirst.server.pwd;

import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import org.forgerock.opendj.ldap.ByteString;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

/**
 * Values made by the real tools (slappasswd 2.5 from Debian 12's slapd, with its libxcrypt; OpenSSL 3.0;
 * htpasswd 2.4), kept as they came out, each with the command that made it. {@code $P} is the password of
 * the row.
 */
public class MigratedHashVectorsTest {

    private static final String MIGRATED = "Mig-rated 5ecret";
    private static final String NON_ASCII = "p\u00e4ssw\u00f6rd \u20ac";
    private static final String LONG = "x".repeat(80);

    private static final PasswordSchemes SCHEMES = new PasswordSchemes("SSHA512", false);

    private static ByteString utf8(String s) {
        return ByteString.valueOfUtf8(s);
    }

    @DataProvider
    public Object[][] vectors() {
        return new Object[][] {
            // slappasswd -h {SHA} -s "$P"
            {MIGRATED, "{SHA}AlR70pYhOUdzFcIr954nT/rMG3s="},
            // slappasswd -h {MD5} -s "$P"
            {MIGRATED, "{MD5}HkYnxiUW4cRPSkgLKL3LfA=="},
            // slappasswd -h {SMD5} -s "$P"
            {MIGRATED, "{SMD5}OYf8pz7jsYG9Ylm431Y8+7ExL6w="},
            {NON_ASCII, "{SMD5}ymged0VqvESFl9vHlvAVPD5mWfU="},
            // slappasswd -h {CRYPT} -c '%.2s' -s "$P" (DES: only "Mig-rate" counts)
            {MIGRATED, "{CRYPT}MGnF1eKyEVwE6"},
            // slappasswd -h {CRYPT} -c '$1$%.8s' -s "$P"
            {MIGRATED, "{CRYPT}$1$980DEXBI$wcqDIulYUp/iYXK9YTrFf/"},
            // openssl passwd -1 "$P"
            {MIGRATED, "{CRYPT}$1$34XtlRcv$Ok.19A8nHPylF734iqsAK0"},
            // slappasswd -h {CRYPT} -c '$5$%.16s' -s "$P"
            {MIGRATED, "{CRYPT}$5$1cntU4bhxOs/rZ2a$vWLAowspGaB55YL7aP2RobZWFU6xxZafDNREQRgu6z4"},
            // slappasswd -h {CRYPT} -c '$5$rounds=10000$%.16s' -s "$P"
            {MIGRATED, "{CRYPT}$5$rounds=10000$OqjRSJ3OmVMhEYc$MkNjUMyfLkqhXJtzGgSvw/WNRuDE3.rngprpT/62IH/"},
            // openssl passwd -5 "$P"
            {MIGRATED, "{CRYPT}$5$JOIXLrdQSpZ54IFY$rB7GNZFMcwRpeYjKPZU5qNqfbIctu7L5h7TBes617p5"},
            // slappasswd -h {CRYPT} -c '$6$%.16s' -s "$P"
            {MIGRATED, "{CRYPT}$6$C.hAMfDQ.bdYYgdM$x1U6L9fuBDACVRpro7RgK6mDZWFm4R3k9/CrMKwcEb2kFzY6oRXhTYE1xhHZgTy"
                    + "C.inFJfbhzzSVVgzlRpH9X0"},
            {NON_ASCII, "{CRYPT}$6$lBRhYB/SxPbgPUZ9$b5yRCpOyOdkb1glWEdcimt.txtT615i/d7JjhLRU8AZaEAzIOdLHPYuN08aKP"
                    + "S64ymPzn9jCshMkJBCkxIKxu/"},
            // slappasswd -h {CRYPT} -c '$6$rounds=5000$%.16s' -s "$P"
            {MIGRATED, "{CRYPT}$6$rounds=5000$fDKYG5NFDvK1xFe0$tg.M7sblcHtQbPXrKdteGNfjseSrraeztaBuVv84/Qy5q5td"
                    + "rMtYhzOxw011Re318s.p8PuBmK1I2GoGobYDG1"},
            // openssl passwd -6 "$P"
            {MIGRATED, "{CRYPT}$6$.nAywtIgd/Y7FwqJ$sl5z6CZYi56LxA1lal3hw9FlMiL7bXk0CDP4jvA4SqGIG7w7S4v/h28yXdhsbv"
                    + "OChVfXS2Mi6nOVKStkGHVrQ/"},
            // slappasswd -h {CRYPT} -c '$2a$05$%.22s' -s "$P"
            {MIGRATED, "{CRYPT}$2a$05$l1qrbhLWjxkTQNfvVw6ZiOi5FkRt7De4zjylaTMiPqk.LSX.Tx34q"},
            // slappasswd -h {CRYPT} -c '$2b$05$%.22s' -s "$P"
            {MIGRATED, "{CRYPT}$2b$05$rWFBtdxzIEAeN.khsv7g4O5MkcMMJq1MC2zNwfGHZkyTK.1u35lYC"},
            {NON_ASCII, "{CRYPT}$2b$05$XTtIWARAxjN.cHloj2qsNuN7KXtSycziRGEsYeGDUsunO/Ax8XwIS"},
            // slappasswd -h {CRYPT} -c '$2y$05$%.22s' -s "$P"
            {MIGRATED, "{CRYPT}$2y$05$GdZrc1gwT4qYHtNZI4T2.uPFnNbUKxiwjT3YyIx1f0MOmjsHe24vO"},
            // htpasswd -nbB -C 5 u "$P"
            {MIGRATED, "{CRYPT}$2y$05$OfVn.cJkz8yGFYq0.Yu3GuhNl9QlkLjtSma6HEGfKYRRWK00GUe92"},
            {NON_ASCII, "{CRYPT}$2y$05$rCcaMwY2nK.Vxd.NKe4w4uA6QdDCYVrmOhp0EHH/F0zGS62iIptmq"},
            // htpasswd -nbB -C 4 u "$P" (bcrypt uses the first 72 bytes only)
            {LONG, "{CRYPT}$2y$04$lJO4RKUdehAWrKrFBwQViuMa.3TyunMNKjUjollGshimt3QuhthPy"},
            // OpenDJ's {BCRYPT} holds the same strings: the $2a$, $2b$ and $2y$ values above
            {MIGRATED, "{BCRYPT}$2a$05$l1qrbhLWjxkTQNfvVw6ZiOi5FkRt7De4zjylaTMiPqk.LSX.Tx34q"},
            {MIGRATED, "{BCRYPT}$2b$05$rWFBtdxzIEAeN.khsv7g4O5MkcMMJq1MC2zNwfGHZkyTK.1u35lYC"},
            {MIGRATED, "{BCRYPT}$2y$05$OfVn.cJkz8yGFYq0.Yu3GuhNl9QlkLjtSma6HEGfKYRRWK00GUe92"},
        };
    }

    @Test(dataProvider = "vectors")
    public void theRightPasswordMatches(String password, String stored) {
        assertTrue(SCHEMES.isEncoded(utf8(stored)), stored);
        assertTrue(SCHEMES.verify(utf8(password), utf8(stored)), stored);
    }

    @Test(dataProvider = "vectors")
    public void aWrongPasswordDoesNot(String password, String stored) {
        // Changed in the first character: DES and bcrypt ignore what comes after 8 and 72 bytes.
        String wrong = (char) (password.charAt(0) ^ 1) + password.substring(1);
        assertFalse(SCHEMES.verify(utf8(wrong), utf8(stored)), stored);
        assertFalse(SCHEMES.verify(utf8("!" + password), utf8(stored)), stored);
    }

    @Test
    public void desAndBcryptIgnoreTheTailLikeTheirOriginals() {
        assertTrue(SCHEMES.verify(utf8("Mig-rateXYZ"), utf8("{CRYPT}MGnF1eKyEVwE6")));
        String bcrypt = "{CRYPT}$2y$04$lJO4RKUdehAWrKrFBwQViuMa.3TyunMNKjUjollGshimt3QuhthPy";
        assertTrue(SCHEMES.verify(utf8("x".repeat(72)), utf8(bcrypt)));
        assertFalse(SCHEMES.verify(utf8("x".repeat(71)), utf8(bcrypt)));
    }

    @Test
    public void bcryptValuesAreNotReadAsOtherSchemes() {
        // {BCRYPT} reads bcrypt only; {SHA} and {MD5} do not read each other's digests.
        assertFalse(SCHEMES.verify(utf8(MIGRATED),
                utf8("{BCRYPT}$6$rounds=5000$fDKYG5NFDvK1xFe0$tg.M7sblcHtQbPXrKdteGNfjseSrraez"
                        + "taBuVv84/Qy5q5tdrMtYhzOxw011Re318s.p8PuBmK1I2GoGobYDG1")));
        assertFalse(SCHEMES.verify(utf8(MIGRATED), utf8("{SHA}HkYnxiUW4cRPSkgLKL3LfA==")));
        assertFalse(SCHEMES.verify(utf8(MIGRATED), utf8("{MD5}AlR70pYhOUdzFcIr954nT/rMG3s=")));
    }
}
