"""Chinese recipe choices that name everyday tools and optional pairs, each construction tested with
sentences of two collections (zh-drinks, zh-meow, HowToCook): real rule extraction (``extract_corpus``)."""

from __future__ import annotations

from conftest import mini_corpus, sub_pairs


def test_cloths_and_papers_are_tools_of_a_choice(tmp_path):
    """A cloth, a filter paper or a paper towel is a tool: "滤网/滤纸" (zh-drinks, a tool list),
    "用厨房纸巾或毛巾擦干" (zh-meow, a step) and "用湿布或保鲜膜盖住碗口" (HowToCook, a step) pair two tools."""
    ex = mini_corpus(tmp_path, {
        "冷萃咖啡.md": "# 冷萃咖啡\n\n## 所需工具\n- 冷萃壶/密封容器\n- 滤网/滤纸\n- 电子秤\n\n"
                       "## 制作步骤\n1. 研磨咖啡豆\n2. 室温浸泡12小时\n",
        "豉汁蒸排骨.md": "# 豉汁蒸排骨\n\n## 原料\n- 排骨 500g\n- 豆豉 1勺\n\n"
                        "## 步骤\n1. 排骨剁小段洗净血水，用厨房纸巾或毛巾擦干\n2. 加入豆豉拌匀\n",
        "印度烤饼.md": "# 印度烤饼\n\n## 原料\n- 面粉 250g\n- 水 150ml\n\n"
                      "## 步骤\n1. 面粉加水揉成面团\n2. 用湿布或保鲜膜盖住碗口\n",
    })
    pairs = sub_pairs(ex)
    assert ("滤网", "滤纸") in pairs
    assert ("厨房纸巾", "毛巾") in pairs
    assert ("湿布", "保鲜膜") in pairs


def test_a_tool_after_an_or_is_cut_before_its_verb(tmp_path):
    """"用小刀或者叉子伸入口子" (HowToCook): the other tool is 叉子, not the words of the step after it."""
    ex = mini_corpus(tmp_path, {
        "烤茄子.md": "# 烤茄子\n\n## 原料\n- 茄子 2个\n- 蒜 4瓣\n\n## 工具\n- 小刀\n\n"
                    "## 步骤\n1. 茄子烤软\n2. 用小刀或者叉子伸入口子，竖着切割茄子内部\n",
    })
    pairs = sub_pairs(ex)
    assert ("小刀", "叉子") in pairs
    assert not any(o.startswith("叉子伸") for _, o in pairs)
