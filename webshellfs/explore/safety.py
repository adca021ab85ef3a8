"""What an exploration never does, as tables of rules: no form is submitted, no control that
reads destructive or committing is pressed, no link leaves the site or reads as logging out,
deleting, buying or downloading. Deterministic: the same page always gets the same verdicts.

Words are matched whole (lower-case, accents kept), in the languages the compiler reads
(compiler/regions.py): English, German, Spanish, French, Polish, Italian, Portuguese, Dutch.
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

from webshellfs.contract.records import Action, Link

__all__ = ["control_refusal", "is_candidate", "link_refusal", "pointing_refusal", "same_site",
           "site_of"]

# Leaving: logging out, or out of a subscription. A link reading so is never followed either.
LEAVING = (
    "log out", "logout", "log off", "sign out", "signout", "unsubscribe",
    "abmelden", "ausloggen", "abbestellen",
    "cerrar sesión", "darse de baja", "desuscribirse",
    "déconnexion", "se déconnecter", "se désabonner", "désabonner",
    "wyloguj", "wyloguj się", "wypisz", "anuluj subskrypcję",
    "esci", "disconnetti", "annulla iscrizione",
    "terminar sessão", "cancelar inscrição", "cancelar assinatura",
    "uitloggen", "afmelden", "uitschrijven",
)
# Destroying something kept.
DESTROYING = (
    "delete", "remove", "erase", "destroy", "discard", "deactivate", "close account",
    "löschen", "entfernen", "eliminar", "borrar", "quitar", "supprimer", "effacer", "retirer",
    "usuń", "usunąć", "elimina", "cancella", "rimuovi", "excluir", "apagar", "remover",
    "verwijderen", "wissen",
)
# Paying, ordering, putting in a cart.
BUYING = (
    "buy", "buy now", "purchase", "pay", "checkout", "check out", "order", "place order",
    "add to cart", "add to basket", "add to bag", "donate",
    "kaufen", "jetzt kaufen", "bezahlen", "zahlen", "bestellen", "zur kasse", "in den warenkorb",
    "comprar", "pagar", "realizar pedido", "añadir al carrito", "acheter", "payer", "commander",
    "ajouter au panier", "kup", "kupić", "zapłać", "zamów", "do koszyka", "dodaj do koszyka",
    "compra", "acquista", "paga", "ordina", "aggiungi al carrello", "encomendar",
    "adicionar ao carrinho", "kopen", "betalen", "in winkelwagen",
)
# Sending, publishing, subscribing, saving: what commits something to the site.
COMMITTING = (
    "send", "submit", "post", "publish", "reply", "subscribe", "sign up", "register", "follow",
    "unfollow", "like", "vote", "book", "reserve", "confirm", "accept", "agree", "save",
    "apply", "upload", "report", "block", "reset",
    "senden", "absenden", "abschicken", "veröffentlichen", "abonnieren", "registrieren",
    "speichern", "bestätigen", "akzeptieren", "zustimmen",
    "enviar", "publicar", "suscribirse", "suscríbete", "registrarse", "guardar", "confirmar",
    "aceptar", "envoyer", "publier", "s'abonner", "abonnez-vous", "s'inscrire", "enregistrer",
    "confirmer", "accepter", "wyślij", "opublikuj", "subskrybuj", "zasubskrybuj", "zapisz",
    "potwierdź", "akceptuj", "invia", "pubblica", "iscriviti", "abbonati", "salva", "conferma",
    "accetta", "publicar", "assinar", "inscrever-se", "salvar", "aceitar",
    "verzenden", "versturen", "plaatsen", "publiceren", "abonneren", "opslaan", "bevestigen",
    "accepteren",
)
# Taking a file away rather than reading a page.
FILE_WORDS = (
    "download", "herunterladen", "descargar", "télécharger", "pobierz", "scarica", "baixar",
    "transferir", "downloaden",
)
# Printing: a button opens the print dialog; a link so named is only a page (a manual's page
# on its own `print` command, a printer-friendly copy), so links are not refused for it.
PRINT_WORDS = ("print", "drucken", "imprimir", "imprimer", "drukuj", "stampa", "afdrukken")
REFUSED_CONTROL_WORDS = {
    "leaves": LEAVING, "destroys": DESTROYING, "buys": BUYING, "commits": COMMITTING,
    "takes a file": FILE_WORDS, "prints": PRINT_WORDS,
}
REFUSED_LINK_WORDS = {
    "leaves": LEAVING, "destroys": DESTROYING, "buys": BUYING, "takes a file": FILE_WORDS,
}
# The same, as words of an address's path or query (`/logout`, `?action=delete`).
REFUSED_ADDRESS_WORDS = frozenset({
    "logout", "log-out", "logoff", "signout", "sign-out", "unsubscribe", "delete", "remove",
    "destroy", "checkout", "download", "abmelden",
})
# Files that are downloads, not pages to read.
DOWNLOAD_EXTENSIONS = frozenset({
    "zip", "gz", "tgz", "bz2", "xz", "7z", "rar", "tar", "exe", "msi", "dmg", "pkg", "deb", "rpm",
    "apk", "iso", "img", "bin", "jar", "mp3", "mp4", "m4a", "avi", "mov", "mkv", "webm", "wav",
    "flac", "ogg", "pdf", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "odt", "ods", "csv",
    "png", "jpg", "jpeg", "gif", "svg", "webp", "ico", "woff", "woff2", "ttf",
})
WEB_SCHEMES = ("http", "https")
# Controls tried on a representative page: what a person clicks to move or reveal.
TRIED_CONTROLS = frozenset({"button", "tab", "menu item", "tree item", "details", "link",
                            "clickable"})
TRIED_KINDS = frozenset({"click", "toggle"})
NEVER_PRESSED = frozenset({"submit", "reset"})

_WORD = re.compile(r"[\w'’-]+")


def _phrases(table: tuple[str, ...]) -> re.Pattern[str]:
    ordered = sorted(table, key=len, reverse=True)
    return re.compile(r"(?<![\w'-])(?:" + "|".join(re.escape(p) for p in ordered) + r")(?![\w'-])")


_CONTROL_RULES = tuple((why, _phrases(words)) for why, words in REFUSED_CONTROL_WORDS.items())
_LINK_RULES = tuple((why, _phrases(words)) for why, words in REFUSED_LINK_WORDS.items())


def _reads(text: str, rules: tuple[tuple[str, re.Pattern[str]], ...]) -> str:
    """`reads as "log out"` for the first rule text matches, else ""."""
    lowered = " ".join(text.lower().split())
    for why, pattern in rules:
        found = pattern.search(lowered)
        if found:
            return f'{why}: reads "{found.group(0)}"'
    return ""


def site_of(url: str) -> str:
    """The site a URL belongs to: its host without `www.`, with its port (`shop.example:8080`)."""
    parts = urlsplit(url)
    host = (parts.hostname or "").removeprefix("www.")
    return f"{host}:{parts.port}" if parts.port else host


def same_site(url: str, site: str) -> bool:
    return urlsplit(url).scheme in WEB_SCHEMES and site_of(url) == site


def link_refusal(link: Link, site: str) -> str:
    """Why a link is not followed ("" when it may be): another scheme or site, a download, or
    words that say it logs out, deletes, buys or takes a file."""
    parts = urlsplit(link.url)
    if parts.scheme not in WEB_SCHEMES:
        return f"not a web page ({parts.scheme or 'no'} scheme)"
    if site_of(link.url) != site:
        return "another site"
    name = parts.path.rpartition("/")[2]
    extension = name.rpartition(".")[2].lower() if "." in name else ""
    if extension in DOWNLOAD_EXTENSIONS:
        return f"a download (.{extension})"
    address = unquote(f"{parts.path} {parts.query}").lower().replace("_", "-")
    address_words = set(_WORD.findall(address))
    address_words |= {w for word in address_words for w in word.split("-")}
    refused = sorted(address_words & REFUSED_ADDRESS_WORDS)
    if refused:
        return f'its address reads "{refused[0]}"'
    return _reads(link.text, _LINK_RULES)


def control_refusal(action: Action) -> str:
    """Why a control is never pressed ("" when it may be): a form and its submit and reset
    buttons, anything inside a form, and labels that read destructive or committing."""
    if action.kind == "submit" or action.control in NEVER_PRESSED:
        return "submits a form"
    if action.context.startswith("form ") or " form A" in action.context:
        return "inside a form"
    return _reads(action.label, _CONTROL_RULES)


def pointing_refusal(words: str) -> str:
    """Why a menu item is never even pointed at ("" when it may be): words that read as
    leaving, destroying, buying or taking a file, as a link's would (a hover may be all a
    page's script waits for)."""
    return _reads(words, _LINK_RULES)


def is_candidate(action: Action) -> bool:
    """A control a person uses to move or reveal: a menu button, tab, disclosure, dropdown."""
    return action.kind in TRIED_KINDS and action.control in TRIED_CONTROLS
