package io.partita.query;

import java.util.Locale;

/**
 * One lexical token of a statement, as {@link SqlTokenizer} read it.
 *
 * @param text     a word as written; a quoted identifier or string literal without its quotes and with the doubled
 *                 quote undone ({@code ""}, {@code ''}); a number or symbol as written
 * @param position the offset of the token's first character, for messages
 */
record SqlToken(Kind kind, String text, int position) {

    enum Kind {
        /** An unquoted identifier or keyword: {@code [A-Za-z_][A-Za-z0-9_]*}. */
        WORD,
        /** A double-quoted identifier: never a keyword, and case-sensitive. */
        QUOTED,
        /** A single-quoted string literal. */
        STRING,
        NUMBER,
        /** A {@code ?} parameter marker. */
        PARAMETER,
        /** An operator or punctuation from the accepted set. */
        SYMBOL
    }

    boolean isWord(String keyword) {
        return kind == Kind.WORD && text.equalsIgnoreCase(keyword);
    }

    boolean isSymbol(String symbol) {
        return kind == Kind.SYMBOL && text.equals(symbol);
    }

    /** An identifier of either kind. */
    boolean isIdentifier() {
        return kind == Kind.WORD || kind == Kind.QUOTED;
    }

    /** The word in upper case, for keyword lookups; only meaningful for {@link Kind#WORD}. */
    String upper() {
        return text.toUpperCase(Locale.ROOT);
    }

    /**
     * The token as the engine is sent it: quoted identifiers and strings re-quoted with only the doubled quote as an
     * escape, everything else as written. Every form here reads back as exactly this one token in Hazelcast's parser.
     */
    String sql() {
        return switch (kind) {
            case QUOTED -> '"' + text.replace("\"", "\"\"") + '"';
            case STRING -> '\'' + text.replace("'", "''") + '\'';
            default -> text;
        };
    }
}
