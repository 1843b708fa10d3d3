"""Texts of the group rules (群规则): Chinese first, English when the chat's language is `en`."""

from __future__ import annotations

from bot.texts import register

register(
    {
        # rule names as members see them
        "mod_rule_flood": {"zh": "刷屏", "en": "flooding"},
        "mod_rule_repeat": {"zh": "重复刷屏", "en": "repeating the same text"},
        "mod_rule_link": {"zh": "广告链接", "en": "a link"},
        "mod_rule_invite": {"zh": "邀请链接", "en": "an invite link"},
        "mod_rule_ad_keyword": {"zh": "广告", "en": "advertising"},
        "mod_rule_manual": {"zh": "管理员处理", "en": "admin action"},
        "mod_reason": {"zh": "{rule}：{detail}", "en": "{rule}: {detail}"},
        "mod_detail_flood": {"zh": "{seconds} 秒内 {count} 条", "en": "{count} messages in {seconds} s"},
        "mod_detail_repeat": {"zh": "同一内容连发 {count} 次", "en": "the same text {count} times in a row"},
        "mod_repeat_next": {
            "zh": "（同一条已经发了 {count} 次：再发一次按群规算重复刷屏）",
            "en": "(the same line {count} times now: once more is flooding under the group rules)",
        },
        # the ladder
        "mod_offence_warn": {
            "zh": "⚠️ {name} 违反群规（{rule}：{detail}）。第 {n} 次违规：警告。{next}",
            "en": "⚠️ {name} broke the group rules ({rule}: {detail}). Offence #{n}: a warning. {next}",
        },
        "mod_offence_warn_fine": {
            "zh": "⚠️ {name} 违反群规（{rule}：{detail}）。第 {n} 次违规：警告，罚发红包 {amount}，已记入红包池。{next}",
            "en": "⚠️ {name} broke the group rules ({rule}: {detail}). Offence #{n}: a warning and a fine of "
            "{amount}, paid into the pot. {next}",
        },
        "mod_offence_remove": {
            "zh": "🚪 {name} 第 {n} 次违反群规（{rule}：{detail}），请出本群。",
            "en": "🚪 {name} broke the group rules again ({rule}: {detail}). Offence #{n}: removal from the group.",
        },
        "mod_offence_ban": {
            "zh": "⛔ {name} 第 {n} 次违反群规（{rule}：{detail}），封禁。",
            "en": "⛔ {name} broke the group rules again ({rule}: {detail}). Offence #{n}: a ban.",
        },
        "mod_offence_record": {"zh": "记录 #{id}", "en": " Record #{id}"},
        "mod_next_remove": {"zh": "再犯将被请出本群。", "en": "Next time: removal from the group."},
        "mod_next_ban": {"zh": "再犯将被封禁。", "en": "Next time: a ban."},
        "mod_next_fine": {"zh": "再犯将罚发红包。", "en": "Next time: a fine."},
        "mod_deleted": {"zh": "（消息已删除）", "en": "(message deleted)"},
        "mod_no_rights": {
            "zh": "⚠️ 机器人没有删除消息或移出成员的权限，只能记录违规。请群主把机器人设为管理员并授予这些权限。",
            "en": "⚠️ The bot lacks the rights to delete messages or remove members, so it only records offences. "
            "Please make it an admin with those rights.",
        },
        # name card
        "mod_namecard": {
            "zh": "👋 {name}，欢迎！按群规请把群名片改成“名字-身份”的格式，例如：{example}。"
            "也可以发送 名片 {example} 设置账本里显示的名字。",
            "en": "👋 {name}, welcome! The group rules ask for a name card in the form 'name-role', e.g. {example}. "
            "You can also send /alias {example} to set the name the ledger shows.",
        },
        # admin commands
        "mod_who": {
            "zh": "请回复要处理的成员的消息，或 @TA。",
            "en": "Reply to the member's message, or @mention them.",
        },
        "mod_unknown_member": {"zh": "找不到成员：{name}", "en": "No such member: {name}"},
        # a fine naming its member by a plain name (`大胖 罚款 5`, `罚款 大胖 5`): a name is never who a fine is of
        "mod_fine_by_name": {
            "zh": "没有记：「{name}」要用 @ 提到（罚款不认名字），或回复 TA 的消息。这样写：罚款 @TA {rest}",
            "en": "Not booked: name “{name}” with @ (a fine never goes by a name), or reply to their message. "
            "Write: /fine @x {rest}",
        },
        "mod_not_a_member": {
            "zh": "{name} 不是群成员（访客或红包池），不能处罚。",
            "en": "{name} is not a chat member (a guest or the pot) and cannot be penalised.",
        },
        "mod_exempt": {
            "zh": "{name} 是管理员或机器人，不处罚。",
            "en": "{name} is an admin or a bot and is not penalised.",
        },
        "mod_warned": {
            "zh": "⚠️ {name} 被管理员警告（{reason}）。当前有效警告 {n} 次。记录 #{id}",
            "en": "⚠️ {name} was warned by an admin ({reason}). Live warnings: {n}. Record #{id}",
        },
        "mod_fined": {
            "zh": "💰 {name} 被罚发红包 {amount}（{reason}），已记入红包池。记录 #{id}",
            "en": "💰 {name} was fined {amount} ({reason}), paid into the pot. Record #{id}",
        },
        "mod_removed": {
            "zh": "🚪 {name} 被请出本群（{reason}），可以重新邀请。记录 #{id}",
            "en": "🚪 {name} was removed ({reason}) and may be invited back. Record #{id}",
        },
        "mod_banned": {
            "zh": "⛔ {name} 被封禁（{reason}）。解封：解封 @TA。记录 #{id}",
            "en": "⛔ {name} was banned ({reason}). To lift it: /unban @them. Record #{id}",
        },
        "mod_unban_reason": {"zh": "解封", "en": "unbanned"},
        "mod_unbanned": {"zh": "✅ 已解封 {name}。", "en": "✅ {name} is unbanned."},
        "mod_no_reason": {"zh": "未说明原因", "en": "no reason given"},
        "mod_one_member": {
            "zh": "一次只处理一位成员，{name} 请另发一条。",
            "en": "One member at a time: send another command for {name}.",
        },
        "mod_bad_fine": {
            "zh": "罚款金额看不懂：{text}（{why}）。请写 0.01 到 {most} 之间的金额，例如 5、2.5、5元 或 50分。",
            "en": "Cannot read the fine: {text} ({why}). Write an amount from 0.01 to {most}: 5, 2.5, 5元 or 50分.",
        },
        "amount_bounds": {
            "zh": "{what}金额要在 {least} 到 {most} 之间，「{text}」不行。",
            "en": "{what} must be from {least} to {most}; “{text}” is not.",
        },
        "mod_bad_amount": {
            "zh": "金额看不懂：{text}（{why}）",
            "en": "Cannot read the amount: {text} ({why})",
        },
        "mod_cancel_usage": {
            "zh": "用法：撤销处罚 #记录编号 [原因]（编号见 违规记录 @TA）",
            "en": "Usage: /pardon #record [reason] (numbers: /violations @member)",
        },
        "mod_not_a_record": {
            "zh": "{text} 不是记录编号（编号见 违规记录 @TA）。",
            "en": "{text} is not a record number (numbers: /violations @member).",
        },
        "mod_editor_not_admin": {
            "zh": "{name} 不是管理员：只有管理员才能被指定修改群规。请先把 TA 设为管理员。",
            "en": "{name} is not an admin: only admins can be named to change the rules. Make them an admin first.",
        },
        "mod_cancelled": {
            "zh": "↩️ 已撤销记录 {id}（{kind}，{name}）。{extra}",
            "en": "↩️ Record {id} cancelled ({kind}, {name}). {extra}",
        },
        "mod_cancelled_fine": {
            "zh": "罚款 {amount} 已退回，红包池余额 {pot}。",
            "en": "The fine of {amount} is refunded; the pot holds {pot}.",
        },
        "mod_fine_kept_fine_night_closed": {
            "zh": "罚款 {amount}（记录 #{id}）不退，仍然记着：它所在的那晚已经结算，结算过的账不再改动。"
            "要把钱还给 TA：发红包池 @TA 金额。",
            "en": "The fine of {amount} (record #{id}) stays booked: its night is already settled, and a settled "
            "night is closed. To give the money back: /payout @member amount.",
        },
        "mod_fine_kept_fine_paid_out": {
            "zh": "罚款 {amount}（记录 #{id}）不退，仍然记着：它在之后的发红包池里已经发出去了。"
            "要补偿 TA，等红包池有钱时：发红包池 @TA 金额。",
            "en": "The fine of {amount} (record #{id}) stays booked: the pot has been paid out since, the fine with "
            "it. To make it up once the pot holds enough: /payout @member amount.",
        },
        "mod_kind_warning": {"zh": "警告", "en": "warning"},
        "mod_kind_fine": {"zh": "罚红包", "en": "fine"},
        "mod_kind_removal": {"zh": "请出", "en": "removal"},
        "mod_kind_ban": {"zh": "封禁", "en": "ban"},
        "mod_record_head": {
            "zh": "📋 {name} 的违规记录（有效警告 {n} 次）：",
            "en": "📋 {name}'s record (live warnings: {n}):",
        },
        "mod_record_empty": {"zh": "📋 {name} 没有违规记录。", "en": "📋 {name} has a clean record."},
        # an admin's bare 违规记录: the group's latest records, each with its member
        "mod_group_record_head": {
            "zh": "📋 本群最近的违规记录（共 {total} 条，这里是最近 {n} 条；看某人的：违规记录 @TA）：",
            "en": "📋 The group's latest records ({n} of {total}; one member's: /violations @x):",
        },
        "mod_group_record_head_all": {
            "zh": "📋 本群的违规记录（共 {total} 条；看某人的：违规记录 @TA）：",
            "en": "📋 The group's records ({total}; one member's: /violations @x):",
        },
        "mod_group_record_empty": {"zh": "📋 本群没有违规记录。", "en": "📋 The group has no records."},
        "mod_group_record_line": {
            "zh": "#{id} {when} {name}｜{kind}{amount}｜{reason}｜{by}{cancelled}",
            "en": "#{id} {when} {name} | {kind}{amount} | {reason} | {by}{cancelled}",
        },
        "mod_record_line": {
            "zh": "#{id} {when} {kind}{amount}｜{reason}｜{by}{cancelled}",
            "en": "#{id} {when} {kind}{amount} | {reason} | {by}{cancelled}",
        },
        "mod_by_bot": {"zh": "机器人", "en": "the bot"},
        "mod_by_admin": {"zh": "管理员 {name}", "en": "admin {name}"},
        "mod_cancelled_mark": {"zh": "（已撤销：{reason}）", "en": " (cancelled: {reason})"},
        "mod_pot": {"zh": "🧧 红包池：{amount}", "en": "🧧 The pot holds {amount}"},
        "mod_pot_empty": {"zh": "🧧 红包池是空的。", "en": "🧧 The pot is empty."},
        "mod_payout_too_many": {
            "zh": "一次最多发给 {most} 人（不写人名就是全体成员平分）。",
            "en": "At most {most} members at a time (name nobody to split among all members).",
        },
        "mod_what_fine": {"zh": "罚款", "en": "A fine"},
        "mod_what_payout": {"zh": "每人领的红包", "en": "A share of the pot"},
        "mod_payout_usage": {
            "zh": "用法：发红包池（全体成员平分）｜发红包池 @甲 @乙（指定成员平分）｜发红包池 @甲 3 @乙 2（指定金额）",
            "en": "Usage: /payout (split among all members) | /payout @a @b (split among them) | /payout @a 3 @b 2",
        },
        "mod_pot_short": {
            "zh": "红包池只有 {pot}，不够发 {need}。",
            "en": "The pot holds only {pot}, not enough for {need}.",
        },
        "mod_already_out": {
            "zh": "{name} 已经不在群里了（{why}）：没有再处理，也没有记录。",
            "en": "{name} is not in the group any more ({why}): nothing done, nothing recorded.",
        },
        "mod_payout_gone": {
            "zh": "{name} {why}，红包池不发给不在群里的人：请去掉 {name} 再发。没有发。",
            "en": "{name} {why}; the pot is not paid to anyone out of the group: leave {name} out. Nothing paid.",
        },
        "mod_gone_left": {"zh": "已经退群了", "en": "has left the group"},
        "mod_gone_removal": {"zh": "已被请出群", "en": "was removed from the group"},
        "mod_gone_ban": {"zh": "已被封禁", "en": "is banned"},
        "mod_pot_short_split": {
            "zh": "红包池只有 {pot}，不够分给 {n} 人。",
            "en": "The pot holds only {pot}, not enough to split among {n}.",
        },
        "mod_paid_out": {"zh": "🧧 红包池发出：", "en": "🧧 Paid out of the pot:"},
        "mod_paid_line": {"zh": "{name} +{amount}", "en": "{name} +{amount}"},
        "mod_pot_left": {"zh": "红包池余额 {amount}", "en": "The pot now holds {amount}"},
        # rules text
        "mod_rules_by": {
            "zh": "（{when} 由 {name} 修改）",
            "en": "(changed {when} by {name})",
        },
        "mod_rules_owner_only": {
            "zh": "只有群主或群主指定的管理员可以修改群规。",
            "en": "Only the group's owner, or admins the owner names, may change the rules.",
        },
        "mod_rules_owner_names": {
            "zh": "只有群主可以指定谁能修改群规。",
            "en": "Only the group's owner may name who can change the rules.",
        },
        "mod_rules_usage": {
            "zh": "用法：修改群规 新的群规全文",
            "en": "Usage: /setrules the new rules text",
        },
        "mod_rules_saved": {
            "zh": "✅ 群规已更新（已记录修改人和时间）。",
            "en": "✅ Rules updated (who and when are logged).",
        },
        "mod_editors_usage": {
            "zh": "用法：群规编辑 @TA（允许修改）｜群规编辑 -@TA（取消）",
            "en": "Usage: /ruleseditor @admin (allow) | /ruleseditor -@admin (revoke)",
        },
        "mod_editors": {"zh": "可修改群规：{names}", "en": "May change the rules: {names}"},
        "mod_owner": {"zh": "群主", "en": "the owner"},
        "mod_rules_history_head": {"zh": "📜 群规修改记录：", "en": "📜 Rules changes:"},
        "mod_rules_history_line": {"zh": "{when} {name}：{first}", "en": "{when} {name}: {first}"},
        "mod_rules_history_empty": {
            "zh": "群规还没有改过（显示的是默认群规）。",
            "en": "The rules were never changed.",
        },
        # reports
        "mod_report_usage": {
            "zh": "请回复要举报的消息并发送 举报 [原因]。",
            "en": "Reply to the message you want to report with /flag [reason].",
        },
        "mod_report": {
            "zh": "🚩 {reporter} 举报了 {target} 的消息：{link}\n内容：{text}\n原因：{reason}\n请管理员处理：{admins}",
            "en": "🚩 {reporter} reported a message by {target}: {link}\nText: {text}\nReason: {reason}\n"
            "Admins, please look: {admins}",
        },
        "mod_report_thanks": {"zh": "已转给管理员，谢谢监督。", "en": "Sent to the admins, thank you."},
        # settings
        "mod_settings_head": {"zh": "⚙️ 群规设置：", "en": "⚙️ Group-rule settings:"},
        "mod_settings_usage": {
            "zh": "用法：群管设置 名称 值（例如 群管设置 罚款 10、群管设置 刷屏条数 8）；"
            "发 群管设置 看全部名称和现在的值",
            "en": "Usage: /modset NAME VALUE (e.g. /modset fine_amount 10, /modset flood_max_messages 8); /modset "
            "alone lists every name and its value",
        },
        "mod_no_setting": {
            "zh": "没有这个设置：{name}。可以设置：{names}",
            "en": "{name}: there is no such setting. Settings: {names}",
        },
        "mod_on": {"zh": "开", "en": "on"},
        "mod_off": {"zh": "关", "en": "off"},
        "mod_settings_saved": {"zh": "✅ 已设置 {name} = {value}", "en": "✅ {name} = {value}"},
        # refusals of the moderation service (LedgerError codes; the Chinese message is specific)
        "ledger_mod_bad_setting": {"zh": "{message}", "en": "Invalid setting {english}"},
        "ledger_mod_bad_amount": {"zh": "{message}", "en": "A fine must be more than 0."},
        "ledger_mod_not_found": {"zh": "{message}", "en": "No such record in this group."},
        "ledger_mod_already_cancelled": {"zh": "{message}", "en": "That record was already cancelled."},
        "ledger_mod_cannot_cancel": {
            "zh": "{message}",
            "en": "A removal has already happened and cannot be cancelled; invite the member back instead.",
        },
        "ledger_fine_night_closed": {
            "zh": "这笔罚款属于已经结算的那晚，结算过的账不再改动，不能撤销。要把钱还给 TA：发红包池 @TA 金额。",
            "en": "That fine belongs to a night already settled, and a settled night is closed: it cannot be "
            "cancelled. To give the money back: /payout @member amount.",
        },
        "ledger_fine_paid_out": {
            "zh": "这笔罚款在之后的发红包池里已经发出去了，不能撤销。要补偿 TA，等红包池有钱时：发红包池 @TA 金额。",
            "en": "That fine went out with a pot payout since, so it cannot be "
            "cancelled. To make it up once the pot holds enough: /payout @member amount.",
        },
        "ledger_mod_empty_rules": {"zh": "{message}", "en": "The rules text cannot be empty."},
        "ledger_mod_rules_too_long": {"zh": "{message}", "en": "The rules text is too long (4000 characters at most)."},
    }
)
