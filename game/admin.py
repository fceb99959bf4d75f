from django.contrib import admin

from game.models import Game


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = (
        "pk", "deal_number", "rules", "status", "move_count", "cards_home",
        "assisted", "created_at", "finished_at",
    )  # fmt: skip
    list_filter = ("status", "rules", "assisted")
    search_fields = ("deal_number", "session_key", "token")
    date_hierarchy = "created_at"
    readonly_fields = ("token", "created_at", "updated_at", "record_text")
    ordering = ("-created_at",)

    @admin.display(description="record")
    def record_text(self, game: Game) -> str:
        return game.record.text
