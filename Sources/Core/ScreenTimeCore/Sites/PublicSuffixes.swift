/// Where a registrable domain begins: a small built-in part of the Public Suffix List (the common
/// suffixes of more than one label, and hosting domains whose subdomains are separate sites),
/// since the whole list is 200 KB and changes weekly. Any other host's registrable domain is its
/// last two labels: `news.example.com` is `example.com`.
enum PublicSuffixes {
    /// Country domains whose second level is a suffix, as registries sell them.
    static let secondLevel: [String: Set<String>] = [
        "uk": ["co", "org", "me", "ltd", "plc", "net", "sch", "ac", "gov", "nhs", "police"],
        "au": ["com", "net", "org", "edu", "gov", "asn", "id"],
        "nz": ["co", "net", "org", "ac", "govt", "geek", "school"],
        "jp": ["co", "ne", "or", "ac", "go", "ad", "ed", "gr", "lg"],
        "kr": ["co", "ne", "or", "ac", "go", "re"],
        "in": ["co", "net", "org", "firm", "gen", "ind", "ac", "edu", "gov", "res"],
        "br": ["com", "net", "org", "gov", "edu", "art", "blog"],
        "cn": ["com", "net", "org", "gov", "edu", "ac"],
        "hk": ["com", "net", "org", "gov", "edu", "idv"],
        "tw": ["com", "net", "org", "gov", "edu", "idv"],
        "mx": ["com", "net", "org", "gob", "edu"],
        "ar": ["com", "net", "org", "gob", "edu"],
        "za": ["co", "net", "org", "gov", "ac", "web"],
        "il": ["co", "net", "org", "ac", "gov", "muni"],
        "tr": ["com", "net", "org", "gov", "edu", "gen", "biz"],
        "sg": ["com", "net", "org", "gov", "edu"],
        "my": ["com", "net", "org", "gov", "edu"],
        "id": ["co", "net", "or", "go", "ac", "web"],
        "th": ["co", "net", "or", "go", "ac", "in"],
        "ua": ["com", "net", "org", "gov", "edu", "in"],
        "pl": ["com", "net", "org", "edu", "gov"],
        "es": ["com", "nom", "org", "gob", "edu"],
        "pt": ["com", "org", "gov", "edu"],
        "fr": ["asso", "com", "gouv", "nom"],
        "it": ["gov", "edu"],
        "ru": ["com", "net", "org"],
        "eg": ["com", "net", "org", "gov", "edu"],
        "ng": ["com", "net", "org", "gov", "edu"],
        "pk": ["com", "net", "org", "gov", "edu"],
        "ph": ["com", "net", "org", "gov", "edu"],
        "vn": ["com", "net", "org", "gov", "edu"],
        "sa": ["com", "net", "org", "gov", "edu"],
        "ae": ["co", "net", "org", "gov", "ac"],
        "ke": ["co", "or", "ne", "go", "ac"],
        "co": ["com", "net", "org", "gov", "edu"],
        "pe": ["com", "net", "org", "gob", "edu"],
        "cl": ["gob", "gov"],
        "at": ["co", "or", "ac", "gv"],
        "be": ["ac"],
    ]

    /// Hosting domains under which each subdomain is someone else's site.
    static let hosting: Set<String> = [
        "github.io", "gitlab.io", "blogspot.com", "netlify.app", "vercel.app", "pages.dev", "herokuapp.com",
        "appspot.com", "web.app", "firebaseapp.com", "wordpress.com", "neocities.org", "codeberg.page",
    ]

    /// The registrable domain of a host's labels (checked, lower-case, at least one): the public
    /// suffix and the one label before it; a host that is itself a suffix stands for itself.
    static func registrableDomain(of labels: [String]) -> String {
        let count = labels.count
        guard count > 2 else { return labels.joined(separator: ".") }
        let lastTwo = labels[(count - 2)...].joined(separator: ".")
        let suffixLength = hosting.contains(lastTwo) || secondLevel[labels[count - 1]]?.contains(labels[count - 2]) == true ? 2 : 1
        return labels[(count - suffixLength - 1)...].joined(separator: ".")
    }
}
