/// How many terminal columns text takes, measured per grapheme cluster (Swift `Character`), the
/// way terminals lay it out: East Asian wide and fullwidth characters and emoji shown as emoji
/// take 2 columns; combining marks, joiners, variation selectors and other invisible format
/// characters take none (they join the character before them); everything else takes 1.
///
/// Built from Unicode's data: the wide table is East Asian Width W and F (EastAsianWidth.txt,
/// with the CJK blocks' unassigned points, which the file also gives W) merged with
/// Emoji_Presentation (emoji-data.txt), as ranges; zero width is General_Category Mn, Me and
/// Cf (from the standard library's Unicode properties). Ambiguous (A) characters count 1, as
/// terminals outside East Asian locales show them.
public enum DisplayWidth {
    /// The columns one character takes: 0, 1 or 2.
    ///
    /// A cluster is as wide as its first scalar, widened to 2 when any of its scalars is wide
    /// (a skin tone, a joined family) or when an emoji-capable base asks for emoji presentation
    /// with U+FE0F ('❤️'). Control characters count 1: the frame draws them as "?".
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        var next = scalars.makeIterator()
        guard let first = next.next() else { return 0 }
        // The common case, one scalar (ASCII, a half block), without a second look at it
        // (nor counting the scalars).
        guard next.next() != nil else { return of(first) }
        var width = of(first)
        for scalar in scalars {
            if isWide(scalar) { return 2 }
            if scalar.value == 0xFE0F && first.properties.isEmoji { return 2 }
        }
        // A cluster that starts with a mark (nothing before it to join) still shows the mark.
        if width == 0 && scalars.count > 1 { width = 1 }
        return width
    }

    /// The columns one scalar takes on its own: 0, 1 or 2.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        // Below U+0300 (where the combining marks start) every character takes one column:
        // ASCII, Latin-1 (the soft hyphen too), the C0 and C1 controls (drawn as "?").
        if scalar.value < 0x300 { return 1 }
        // Box drawing and block elements (the table's half blocks) take
        // one column (East Asian Width A or N, none a mark or a format character), at the
        // cost of one comparison rather than the tables' searches.
        if scalar.value >= 0x2500 && scalar.value < 0x25A0 { return 1 }
        if isWide(scalar) { return 2 }
        if scalar.value == 0x2028 || scalar.value == 0x2029 { return 1 }  // drawn as "?"
        if isZeroWidth(scalar) { return 0 }
        return 1
    }

    /// The columns a string takes.
    public static func of(_ string: some StringProtocol) -> Int {
        var total = 0
        for character in string { total += of(character) }
        return total
    }

    /// The longest start of `string` that fits in `columns` columns.
    public static func prefix(_ string: some StringProtocol, columns: Int) -> Substring {
        let text = Substring(string)
        var used = 0
        var end = text.startIndex
        for index in text.indices {
            let w = of(text[index])
            if used + w > columns { break }
            used += w
            end = text.index(after: index)
        }
        return text[..<end]
    }

    /// `string` cut to at most `columns` columns and padded with spaces to exactly `columns`
    /// (a wide character that would straddle the end is left out, its column a space).
    public static func padded(_ string: some StringProtocol, columns: Int) -> String {
        let cut = prefix(string, columns: columns)
        return String(cut) + String(repeating: " ", count: max(0, columns - of(cut)))
    }

    /// Whether `scalar` is East Asian wide or fullwidth, or shown as emoji by default.
    static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        guard v >= wide[0].lowerBound else { return false }
        var low = 0, high = wide.count - 1
        while low <= high {
            let mid = (low + high) / 2
            if v < wide[mid].lowerBound { high = mid - 1 } else if v > wide[mid].upperBound { low = mid + 1 } else { return true }
        }
        return false
    }

    /// Combining marks (Mn, Me) and invisible format characters (Cf: joiners, U+200B, bidi
    /// marks); the soft hyphen, Cf too, is shown by terminals and counts 1. Hangul medial
    /// vowels and final consonants join the syllable's leading consonant.
    static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v == 0xAD { return false }
        if (0x1160...0x11FF).contains(v) || (0xD7B0...0xD7FF).contains(v) { return true }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return false
        }
    }

    /// East Asian Width W and F, and Emoji_Presentation, merged (Unicode 14 EastAsianWidth.txt,
    /// the standard library's Emoji_Presentation), sorted and disjoint.
    static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1,
        0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA,
        0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B,
        0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55, 0x2E80...0x2E99,
        0x2E9B...0x2EF3, 0x2F00...0x2FD5, 0x2FF0...0x2FFB, 0x3000...0x303E, 0x3041...0x3096, 0x3099...0x30FF,
        0x3105...0x312F, 0x3131...0x318E, 0x3190...0x31E3, 0x31F0...0x321E, 0x3220...0x3247, 0x3250...0x4DBF,
        0x4E00...0xA48C, 0xA490...0xA4C6, 0xA960...0xA97C, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
        0xFE30...0xFE52, 0xFE54...0xFE66, 0xFE68...0xFE6B, 0xFF01...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
        0x16FF0...0x16FF1, 0x17000...0x187F7, 0x18800...0x18CD5, 0x18D00...0x18D08, 0x1AFF0...0x1AFF3,
        0x1AFF5...0x1AFFB, 0x1AFFD...0x1AFFE, 0x1B000...0x1B122, 0x1B150...0x1B152, 0x1B164...0x1B167,
        0x1B170...0x1B2FB, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A,
        0x1F1E6...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248, 0x1F250...0x1F251, 0x1F260...0x1F265,
        0x1F300...0x1F320, 0x1F32D...0x1F335, 0x1F337...0x1F37C, 0x1F37E...0x1F393, 0x1F3A0...0x1F3CA,
        0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E, 0x1F440...0x1F440,
        0x1F442...0x1F4FC, 0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567, 0x1F57A...0x1F57A,
        0x1F595...0x1F596, 0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F, 0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC,
        0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D8, 0x1F6DC...0x1F6DF, 0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC,
        0x1F7E0...0x1F7EB, 0x1F7F0...0x1F7F0, 0x1F90C...0x1F93A, 0x1F93C...0x1F945, 0x1F947...0x1F9FF,
        0x1FA70...0x1FA7C, 0x1FA80...0x1FA8A, 0x1FA8E...0x1FAC6, 0x1FAC8...0x1FAC8, 0x1FACD...0x1FADC,
        0x1FADF...0x1FAEA, 0x1FAEF...0x1FAF8, 0x20000...0x2FFFD, 0x30000...0x3FFFD
    ]
}
